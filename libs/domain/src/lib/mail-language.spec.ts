import { DomainError } from './domain-error';
import { parseMailLanguage } from './mail-language';

describe('parseMailLanguage', () => {
  it('is Russian when absent or null, and takes ru or en in any case', () => {
    expect(parseMailLanguage(undefined)).toBe('ru');
    expect(parseMailLanguage(null)).toBe('ru');
    expect(parseMailLanguage(' EN ')).toBe('en');
    expect(parseMailLanguage('ru')).toBe('ru');
  });

  it('refuses anything else, naming the field', () => {
    expect(() => parseMailLanguage('de')).toThrow(new DomainError('VALIDATION', 'Language must be "ru" or "en".'));
    expect(() => parseMailLanguage(1, 'EnrollmentLink.Language')).toThrow('EnrollmentLink.Language must be "ru" or "en".');
  });
});
