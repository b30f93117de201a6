import { RevocationList } from '@bahi/auth';
import request from 'supertest';
import { appWith, checkerFor, startUpstream, token, type Upstream } from './helpers';

// The gateway passes a path on as it came: the service decodes it once. Decoding here too
// turned GET /api/addProductIntoCart/%25 into a 500 at the service.
let sales: Upstream;
const list = new RevocationList();
beforeAll(async () => {
  sales = await startUpstream();
});
afterAll(() => sales.close());

describe('odd escapes in a path', () => {
  it.each(['%25', '%', '%E0%A4', '%00', '%2F', '2*%25'])('forwards /addProductIntoCart/%s undecoded, never a 5xx', async (code) => {
    const gw = appWith({ auth: checkerFor(list), serviceUrls: { sales: sales.url } });
    const res = await request(gw).get(`/api/addProductIntoCart/${code}?cart_no=1`).set('Authorization', `Bearer ${token()}`);
    expect(res.status).toBe(200);
    expect(res.body.url).toBe(`/addProductIntoCart/${code}?cart_no=1`);
  });
});
