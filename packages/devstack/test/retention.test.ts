import { isoWeekKey, retention } from '../src/retention';

// Instants written in IST (+05:30), as the shop's clock shows them.
const ist = (s: string) => new Date(`${s}+05:30`);
const item = (name: string, at: string, good = true) => ({ name, at: ist(at), good });

describe('backup retention (IST calendar, good backups only)', () => {
  it('names ISO weeks on the IST calendar, the year taken from the Thursday', () => {
    expect(isoWeekKey(ist('2026-01-01T12:00:00').getTime())).toBe('2026-W01'); // Thursday
    expect(isoWeekKey(ist('2027-01-01T12:00:00').getTime())).toBe('2026-W53'); // Friday of 2026's 53rd week
    expect(isoWeekKey(ist('2024-12-30T12:00:00').getTime())).toBe('2025-W01'); // Monday
    // 00:30 IST on Monday 2026-11-23 is still Sunday 22 in UTC: the IST day decides.
    expect(isoWeekKey(ist('2026-11-23T00:30:00').getTime())).toBe('2026-W48');
    expect(isoWeekKey(ist('2026-11-22T23:59:00').getTime())).toBe('2026-W47');
  });

  it('keeps the newest good backup of each of the last 7 days and drops the older ones of a day', () => {
    const now = ist('2026-11-28T23:00:00');
    const r = retention(
      [
        item('d28-late', '2026-11-28T22:30:00'),
        item('d28-early', '2026-11-28T09:00:00'),
        item('d27', '2026-11-27T22:30:00'),
        item('d22', '2026-11-22T22:30:00'), // 7th day back (28, 27, ..., 22)
      ],
      now,
    );
    expect(r.keep).toEqual(['d28-late', 'd27', 'd22']);
    expect(r.drop).toEqual(['d28-early']);
  });

  it('keeps one per ISO week for 4 weeks and one per month for 12 months, beyond the 7 days', () => {
    const now = ist('2026-11-28T23:00:00'); // Saturday of 2026-W48
    const r = retention(
      [
        item('w47-mon', '2026-11-16T22:30:00'), // W47, 12 days back: the week's newest
        item('w46-sun', '2026-11-15T22:30:00'), // Sunday: ISO W46's newest
        item('w46-mon', '2026-11-09T22:30:00'), // W46 has w46-sun, November has w47-mon: dropped
        item('w45', '2026-11-02T22:30:00'), // W45: 4 weeks are W48, W47, W46, W45
        item('w44', '2026-10-28T22:30:00'), // W44: out of the 4 weeks, but October's newest
        item('oct-early', '2026-10-01T22:30:00'), // October already kept: dropped
        item('dec-2025', '2025-12-31T22:30:00'), // 12 months: Dec 2025 .. Nov 2026
        item('nov-2025', '2025-11-30T22:30:00'), // 13th month back: dropped
      ],
      now,
    );
    expect(r.keep).toEqual(['w47-mon', 'w46-sun', 'w45', 'w44', 'dec-2025']);
    expect(r.drop).toEqual(['w46-mon', 'oct-early', 'nov-2025']);
  });

  it('never counts a backup that failed verification: a good one of that day stays; failed ones go after 7 days', () => {
    const now = ist('2026-11-28T23:00:00');
    const r = retention(
      [
        item('bad-today', '2026-11-28T22:30:00', false),
        item('good-today', '2026-11-28T12:00:00'),
        item('bad-old', '2026-11-20T22:30:00', false),
      ],
      now,
    );
    expect(r.keep).toEqual(['bad-today', 'good-today']);
    expect(r.drop).toEqual(['bad-old']);
  });
});
