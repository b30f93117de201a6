import request from 'supertest';
import { auth, startTwoCompanies, type TwoCompanies } from './helpers';

describe('identity: the company\'s network thermal printers (GET/PUT /printers)', () => {
  let two: TwoCompanies;
  let url: string;
  const list = async (token = two.staff) => (await request(url).get('/printers').set(auth(token)).expect(200)).body;

  beforeAll(async () => {
    two = await startTwoCompanies({ cName: 'Gupta Traders', cMob: '9812345678', mEmail: 'ravi@gupta.in' });
    url = two.s.url;
  });
  afterAll(() => two?.stop());

  it('starts empty; a manager saves the list (ids, port 9100, width 80 and cp437 filled in); staff read it; the other company sees none', async () => {
    expect(await list()).toEqual({ printers: [] });
    const r = await request(url)
      .put('/printers')
      .set(auth(two.mgr))
      .send({ printers: [{ name: ' Counter 1 ', host: '192.168.1.50' }, { name: 'Counter 2', host: '10.0.0.7', port: 9101, width: 58, encoding: 'cp858' }] })
      .expect(200);
    const saved = [
      { id: 1, name: 'Counter 1', host: '192.168.1.50', port: 9100, width: 80, encoding: 'cp437' },
      { id: 2, name: 'Counter 2', host: '10.0.0.7', port: 9101, width: 58, encoding: 'cp858' },
    ];
    expect(r.body).toEqual({ printers: saved });
    expect(await list()).toEqual({ printers: saved });
    expect(await list(two.otherMgr)).toEqual({ printers: [] });
    // Ids are kept; a new printer gets the next free one.
    await request(url).put('/printers').set(auth(two.mgr)).send({ printers: [saved[1], { name: 'Back office', host: '127.0.0.1', port: 4000 }] }).expect(200);
    expect((await list()).printers.map((p: { id: number; name: string }) => `${p.id} ${p.name}`)).toEqual(['2 Counter 2', '3 Back office']);
  });

  it('refuses an address off the shop\'s network, a bad port, width or name with a sentence, staff with 403; nothing changes', async () => {
    const before = await list();
    const cases: [unknown, RegExp][] = [
      [{ printers: [{ name: 'P', host: '8.8.8.8' }] }, /8\.8\.8\.8 is not on the shop's own network/],
      [{ printers: [{ name: 'P', host: '172.32.0.1' }] }, /not on the shop's own network/],
      [{ printers: [{ name: 'P', host: 'printer.example.com' }] }, /must be an IP address on the shop's network/],
      [{ printers: [{ name: 'P', host: '192.168.1.300' }] }, /must be an IP address/],
      [{ printers: [{ name: 'P', host: '192.168.1.5', port: 80 }] }, /port must be a whole number from 1024 to 65535/],
      [{ printers: [{ name: 'P', host: '192.168.1.5', port: 70000 }] }, /port must be a whole number from 1024 to 65535/],
      [{ printers: [{ name: 'P', host: '192.168.1.5', width: 76 }] }, /paper width must be 58 or 80/],
      [{ printers: [{ name: 'P', host: '192.168.1.5', encoding: 'utf8' }] }, /encoding must be one of cp437, cp858, windows1252/],
      [{ printers: [{ name: '', host: '192.168.1.5' }] }, /needs a name of 1 to 40 characters/],
      [{ printers: [{ name: 'P', host: '192.168.1.5' }, { name: 'p', host: '192.168.1.6' }] }, /Two printers are named p/],
      [{ printers: [{ name: 'P', host: '192.168.1.5', colour: 'red' }] }, /"colour" is not a printer setting/],
      [{ printers: 'all' }, /Send the printers as a list/],
      [{ printers: Array.from({ length: 21 }, (_, i) => ({ name: `P${i}`, host: '192.168.1.5' })) }, /at most 20 printers/],
    ];
    for (const [body, msg] of cases) {
      const r = await request(url).put('/printers').set(auth(two.mgr)).send(body as object).expect(400);
      expect(String(r.body.message)).toMatch(msg);
    }
    await request(url).put('/printers').set(auth(two.staff)).send({ printers: [] }).expect(403);
    expect(await list()).toEqual(before);
  });
});
