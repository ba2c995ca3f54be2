import { basicCredentialsOf } from './basic-credentials';

const basic = (text: string) => `Basic ${Buffer.from(text, 'utf8').toString('base64')}`;

describe('Basic credentials, read as RFC 7617 says', () => {
  it('splits at the first colon: the secret keeps its own colons', () => {
    expect(basicCredentialsOf(basic('key:secret'))).toEqual({ key: 'key', secret: 'secret' });
    expect(basicCredentialsOf(basic('key:secret:anything'))).toEqual({ key: 'key', secret: 'secret:anything' });
    expect(basicCredentialsOf(`bAsIc ${Buffer.from('k:s').toString('base64')}`)).toEqual({ key: 'k', secret: 's' });
  });

  it.each([
    ['no header', undefined],
    ['another scheme', 'Bearer abc'],
    ['no space', `Basic${Buffer.from('k:s').toString('base64')}`],
    ['two headers', ['Basic a2V5OnM=', 'Basic a2V5OnM=']],
    ['no colon', basic('keysecret')],
    ['an empty key', basic(':secret')],
    ['an empty secret', basic('key:')],
    ['not base64', 'Basic !!!not-base64'],
    ['base64 that does not round-trip', 'Basic a2V5OnN=='],
    ['a second token', `Basic ${Buffer.from('k:s').toString('base64')} extra`],
  ])('null for %s', (_name, header) => {
    expect(basicCredentialsOf(header as string | string[] | undefined)).toBeNull();
  });
});
