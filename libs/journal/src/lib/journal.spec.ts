import { journal } from './journal';

describe('journal', () => {
  it('should work', () => {
    expect(journal()).toEqual('journal');
  });
});
