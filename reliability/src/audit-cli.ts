// `npm run audit:invariants -w @bahi/reliability [-- --uri mongodb://... --company 1]`
// Read-only: prints what it checked and every violation; exit code 1 when any.
import { audit } from './audit';

async function main() {
  const args = process.argv.slice(2);
  const opt = (name: string) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const uri = opt('--uri') ?? process.env.MONGODB_URI ?? 'mongodb://127.0.0.1:27017';
  const company = opt('--company');
  const r = await audit(uri, { companies: company ? [Number(company)] : undefined });
  console.log(
    `Audited ${r.companies} companies: ${r.products} products, ${r.movements} movements, ${r.parties} parties, ${r.entries} entries, ${r.sales} sales, ${r.purchases} purchases.`,
  );
  if (r.inFlight.length) console.log(`In flight (a re-driver finishes or undoes them within seconds): ${r.inFlight.join(', ')}`);
  if (r.violations.length) {
    console.log(`${r.violations.length} violation(s):`);
    for (const x of r.violations) console.log(`  - ${x}`);
    process.exit(1);
  }
  console.log('Every invariant holds.');
}

main().catch((err) => {
  console.error(`Audit failed: ${(err as Error).message}`);
  process.exit(2);
});
