import { GstError, missingRecipientDetails, parseRecipient, recipientDetailsSentence } from '../src';

describe('missingRecipientDetails (Rule 46(e))', () => {
  it('asks nothing below Rs 50,000 of taxable value or of a registered buyer', () => {
    expect(missingRecipientDetails('49999.99', false, {})).toEqual([]);
    expect(missingRecipientDetails('60000.00', true, {})).toEqual([]);
  });

  it('from Rs 50,000.00 names each missing part of an unregistered buyer', () => {
    expect(missingRecipientDetails('50000.00', false, {})).toEqual(['name', 'address', 'state']);
    expect(missingRecipientDetails(60000, false, { name: 'Asha Rao', address: ' ', state: '' })).toEqual(['address', 'state']);
    expect(missingRecipientDetails('50847.46', false, { name: 'Asha Rao', address: '4 MG Road, Pune', state: '27' })).toEqual([]);
  });

  it('says what is missing in one sentence', () => {
    expect(recipientDetailsSentence('50847.46', ['name', 'address', 'state'])).toBe(
      "The taxable value is Rs 50847.46, Rs 50,000 or more, and the buyer has no GSTIN: the tax invoice needs the buyer's name, address and state (Rule 46(e)). Type them for the buyer and sell again.",
    );
    expect(recipientDetailsSentence('50000.00', ['state'])).toContain("needs the buyer's state (Rule 46(e))");
  });
});

describe('parseRecipient', () => {
  it('trims, folds spaces and stores the state as its code', () => {
    expect(parseRecipient({ name: '  Asha   Rao ', address: '4 MG Road,\nPune 411001', state: 'maharashtra' })).toEqual({ name: 'Asha Rao', address: '4 MG Road, Pune 411001', state: '27' });
    expect(parseRecipient({ state: 'KA' })).toEqual({ name: '', address: '', state: '29' });
    expect(parseRecipient({})).toEqual({ name: '', address: '', state: '' });
  });

  it.each<[unknown, string]>([
    [null, 'recipient must be { name, address, state }.'],
    [['Asha'], 'recipient must be { name, address, state }.'],
    [{ name: 'Asha', gstin: 'x' }, 'recipient has an unknown field: gstin.'],
    [{ name: 5 }, "The buyer's name must be text."],
    [{ name: 'x'.repeat(101) }, "The buyer's name can be at most 100 characters."],
    [{ address: 'y'.repeat(251) }, "The buyer's address can be at most 250 characters."],
    [{ name: 'A\u0007sha' }, "The buyer's name cannot hold control characters."],
    [{ state: 'Atlantis' }, "The buyer's state: 'Atlantis' is not an Indian state or union territory (give the GST code such as 27, the name or the short form such as MH)."],
    [{ state: '28' }, "The buyer's state: State code 28"],
  ])('refuses %j', (input, message) => {
    expect(() => parseRecipient(input)).toThrow(GstError);
    expect(() => parseRecipient(input)).toThrow(message);
  });
});
