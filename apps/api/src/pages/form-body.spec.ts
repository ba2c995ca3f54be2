import { formCode, formField } from './form-body';

describe('form-body: a page form field read once, as text', () => {
  it('reads a text field by its exact name', () => {
    expect(formField({ formToken: 'abc', code: '1' }, 'formToken')).toBe('abc');
    expect(formField({ FormToken: 'abc' }, 'formToken')).toBe('');
  });

  it('reads a missing, repeated or non-text field, or a body that is no form, as empty', () => {
    expect(
      [undefined, null, 'code=1', ['1'], {}, { code: ['123456', '654321'] }, { code: 123456 }].map((body) => formField(body, 'code')),
    ).toEqual(['', '', '', '', '', '', '']);
  });

  it('drops the spaces people type or paste inside a code', () => {
    expect(formCode({ code: ' 123 456\t' })).toBe('123456');
    expect(formCode({})).toBe('');
  });
});
