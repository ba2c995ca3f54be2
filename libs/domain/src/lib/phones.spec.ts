import { DomainError } from './domain-error';
import { MAX_PHONES_PER_REQUEST, normalizePhoneNumber, parsePhoneNumberList, planPhoneReplacement } from './phones';

describe('phone numbers', () => {
  it('are normalised to E.164 by libphonenumber', () => {
    expect(normalizePhoneNumber('+7 (916) 123-45-67')).toBe('+79161234567');
    expect(normalizePhoneNumber('+1 650-253-0000')).toBe('+16502530000');
    expect(normalizePhoneNumber('0044 20 7946 0958')).toBe('+442079460958');
  });

  it('refuses numbers that are not valid for their country, or not international', () => {
    for (const bad of ['+7 123', '+999 1234567', '89161234567', 'call me', '', '+1 555 0100 0100 0100']) {
      expect(() => normalizePhoneNumber(bad)).toThrow(DomainError);
    }
  });
});

describe('V3 phone update is rejected', () => {
  it('when PhoneNumbers is null, missing or empty', () => {
    for (const empty of [null, undefined, '', ' ; ; ']) {
      expect(() => parsePhoneNumberList(empty)).toThrow('PhoneNumbers must not be empty.');
    }
  });

  it(`when more than ${MAX_PHONES_PER_REQUEST} numbers are sent`, () => {
    const six = ['+79161234561', '+79161234562', '+79161234563', '+79161234564', '+79161234565', '+79161234566'].join(';');
    expect(() => parsePhoneNumberList(six)).toThrow('At most 5 phone numbers can be sent.');
    expect(parsePhoneNumberList(six.split(';').slice(0, 5).join(';'))).toHaveLength(5);
  });

  it('when any number is incorrect', () => {
    expect(() => parsePhoneNumberList('+79161234567;+7 123')).toThrow('Phone number +7 123 is incorrect.');
  });

  it('when PhoneNumbers is not one string', () => {
    expect(() => parsePhoneNumberList(['+79161234567'])).toThrow(DomainError);
  });

  it('and otherwise yields the distinct numbers in E.164, in order', () => {
    expect(parsePhoneNumberList(' +7 916 123-45-67 ;+16502530000;+79161234567')).toEqual(['+79161234567', '+16502530000']);
  });
});

describe('the list replaces the stored set', () => {
  it('adds every number when none is stored', () => {
    expect(planPhoneReplacement([], ['+79161234567'])).toEqual({ add: ['+79161234567'], remove: [] });
  });

  it('removes numbers absent from the list and adds new ones', () => {
    expect(planPhoneReplacement(['+79161234567', '+16502530000'], ['+16502530000', '+442079460958'])).toEqual({
      add: ['+442079460958'],
      remove: ['+79161234567'],
    });
  });

  it('changes nothing when the list equals the stored set', () => {
    expect(planPhoneReplacement(['+79161234567'], ['+79161234567'])).toEqual({ add: [], remove: [] });
  });
});
