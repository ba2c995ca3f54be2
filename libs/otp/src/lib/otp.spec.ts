import { otp } from './otp';

describe('otp', () => {
  it('should work', () => {
    expect(otp()).toEqual('otp');
  });
});
