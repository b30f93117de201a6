import { missingRequired } from './validation';

describe('create company form', () => {
  const full = { cName: 'Sharma Kirana', cAdd: '4 Station Road', cMob: '9822012345', mName: 'Ravi', mEmail: 'ravi@sharma.local' };

  it('accepts a form with every required field', () => {
    expect(missingRequired(full)).toBe(false);
  });

  it.each(['cName', 'cAdd', 'cMob', 'mName', 'mEmail'] as const)('rejects an empty or blank %s', (key) => {
    expect(missingRequired({ ...full, [key]: '' })).toBe(true);
    expect(missingRequired({ ...full, [key]: '   ' })).toBe(true);
  });
});
