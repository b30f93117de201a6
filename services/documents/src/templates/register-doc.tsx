import { BadRequestException, NotFoundException } from '@nestjs/common';
import { DocumentSubjects as S, PAY_MODES, type RegisterDocument } from '@bahi/contracts';
import { Money } from '@bahi/service-kit';
import { companyFor } from '../documents/company';
import type { DocumentKindDef } from '../documents/kinds';
import { amount, rupees } from '../render/format';
import { langOf, tOf, useT, type DocT } from '../i18n';
import { CompanyHeader, Html } from './layout';
import { A4, type CompanyView } from './model';
import { KV, Rule, thermalCss, thermalSize } from './thermal';

/** The most movements one Z report lists (a day at a busy counter is a few hundred). */
export const REGISTER_MAX_MOVEMENTS = 2000;

/** An instant as the shop reads it: DD-MM-YYYY HH:MM in India. */
export function istTime(iso: string): string {
  const d = new Date(iso);
  const p = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', { timeZone: 'Asia/Kolkata', day: '2-digit', month: '2-digit', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(d).map((x) => [x.type, x.value]),
  );
  return `${p.day}-${p.month}-${p.year} ${p.hour}:${p.minute}`;
}

/** Short / over / matches: the counted cash against the expected. */
function differenceText(t: DocT, diff: string): string {
  const d = Money.money(diff);
  if (d.isZero()) return `${rupees(0)} (${t('register.even')})`;
  return d.isNegative() ? t('register.short', { amount: rupees(d.abs()) }) : t('register.over', { amount: rupees(d) });
}

/** The figures a Z report prints, in order (label, value, emphasised). */
function summaryRows(t: DocT, z: RegisterDocument): [string, string, boolean][] {
  return [
    [t('register.openingCash'), rupees(z.opening_cash), false],
    [t('register.cashIn'), rupees(z.cash_in), false],
    [t('register.cashOut'), `- ${rupees(z.cash_out)}`, false],
    [t('register.expected'), rupees(z.expected_cash), true],
    ...(z.counted_cash !== null ? ([[t('register.counted'), rupees(z.counted_cash), true]] as [string, string, boolean][]) : []),
    ...(z.difference !== null ? ([[t('register.difference'), differenceText(t, z.difference), true]] as [string, string, boolean][]) : []),
  ];
}

const REGISTER_CSS = `
.meta { display: flex; justify-content: space-between; margin: 3mm 0; font-size: 10pt; }
.cols { display: flex; gap: 8mm; }
.cols > div { flex: 1; }
table.sum td { font-size: 10pt; }
table.sum tr.strong td { font-weight: 700; }
h3 { font-size: 10pt; margin: 4mm 0 1mm; }
td, th { font-size: 9pt; }
tr { break-inside: avoid; }
.neg { color: #000; }
.note { margin-top: 3mm; font-size: 10pt; }
.sign { margin-top: 16mm; display: flex; justify-content: space-between; }
.sign span { border-top: 0.2mm solid #444; padding-top: 1mm; min-width: 55mm; text-align: center; }
`;

function Heading(props: { z: RegisterDocument }) {
  const t = useT();
  return (
    <>
      <h2>{props.z.open ? t('register.headingOpen') : t('register.heading')}</h2>
      <div>{t('register.session', { id: props.z.id })}</div>
    </>
  );
}

/** A4: the session's figures, the takings by mode and every money movement, with signatures. */
export function RegisterTemplate(props: { company: CompanyView; z: RegisterDocument; printedAt: string }) {
  const { z } = props;
  const t = tOf(props.company);
  return (
    <Html title={`Z report ${z.id}`} size={A4} lang={langOf(props.company)} css={REGISTER_CSS}>
      <CompanyHeader company={props.company} right={<Heading z={z} />} />
      <div className="meta">
        <span>
          {t('register.cashier')}: <strong>{z.user_name}</strong>
        </span>
        <span>
          {t('register.opened')}: {istTime(z.opened_at)}
        </span>
        <span>{z.closed_at ? `${t('register.closed')}: ${istTime(z.closed_at)}` : t('register.stillOpen', { at: istTime(props.printedAt) })}</span>
      </div>
      <div className="cols">
        <div>
          <table className="sum">
            <tbody>
              {summaryRows(t, z).map(([k, v, strong]) => (
                <tr key={k} className={strong ? 'strong' : ''}>
                  <td>{k}</td>
                  <td className="num">{v}</td>
                </tr>
              ))}
              <tr>
                <td>{t('register.salesCount')}</td>
                <td className="num">{z.sales_count}</td>
              </tr>
            </tbody>
          </table>
        </div>
        <div>
          <table>
            <thead>
              <tr>
                <th>{t('register.byMode')}</th>
                <th className="num">{t('register.net')}</th>
              </tr>
            </thead>
            <tbody>
              {PAY_MODES.map((m) => (
                <tr key={m}>
                  <td>{t(`payMode.${m}`)}</td>
                  <td className="num">{amount(z.totals[m])}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </div>
      {z.note ? (
        <div className="note">
          {t('register.note')}: {z.note}
        </div>
      ) : null}
      <h3>{t('register.movements')}</h3>
      {z.movements.length ? (
        <table>
          <thead>
            <tr>
              <th>{t('register.time')}</th>
              <th>{t('register.what')}</th>
              <th>{t('register.ref')}</th>
              <th>{t('register.mode')}</th>
              <th className="num">{t('common.amount')}</th>
            </tr>
          </thead>
          <tbody>
            {z.movements.map((m, i) => (
              <tr key={i}>
                <td>{istTime(m.at).slice(11)}</td>
                <td>{t(`register.kind.${m.kind}`)}</td>
                <td>{m.ref}</td>
                <td>{t(`payMode.${m.mode}`)}</td>
                <td className="num">{amount(m.amount)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <div className="muted">{t('register.none')}</div>
      )}
      <div className="sign">
        <span>{t('register.signCashier')}</span>
        <span>{t('register.signManager')}</span>
      </div>
    </Html>
  );
}

/** The 80 mm roll: the same figures, one per line, and the movements in short. */
export function ThermalRegisterTemplate(props: { company: CompanyView; z: RegisterDocument; printedAt: string }) {
  const { z, company: c } = props;
  const t = tOf(c);
  return (
    <Html title={`Z report ${z.id}`} size={thermalSize('thermal-80')} margin="0" lang={langOf(c)} css={thermalCss('thermal-80')}>
      <div className="c">
        <h1>{c.name}</h1>
        <div className="title">{z.open ? t('register.headingOpen') : t('register.heading')}</div>
        <div>{t('register.session', { id: z.id })}</div>
      </div>
      <Rule />
      <KV k={t('register.cashier')} v={z.user_name} />
      <KV k={t('register.opened')} v={istTime(z.opened_at)} />
      {z.closed_at ? <KV k={t('register.closed')} v={istTime(z.closed_at)} /> : <div>{t('register.stillOpen', { at: istTime(props.printedAt) })}</div>}
      <Rule />
      {summaryRows(t, z).map(([k, v, strong]) => (
        <KV key={k} k={k} v={v} strong={strong} />
      ))}
      <KV k={t('register.salesCount')} v={String(z.sales_count)} />
      <Rule />
      <div className="strong">{t('register.byMode')}</div>
      {PAY_MODES.map((m) => (
        <KV key={m} k={t(`payMode.${m}`)} v={rupees(z.totals[m])} />
      ))}
      {z.note ? (
        <>
          <Rule />
          <div>
            {t('register.note')}: {z.note}
          </div>
        </>
      ) : null}
      <Rule />
      <div className="strong">{t('register.movements')}</div>
      {z.movements.length ? (
        z.movements.map((m, i) => <KV key={i} k={`${istTime(m.at).slice(11)} ${t(`register.kind.${m.kind}`)} ${m.ref} · ${t(`payMode.${m.mode}`)}`} v={amount(m.amount)} />)
      ) : (
        <div>{t('register.none')}</div>
      )}
      <Rule />
      <div className="small">{t('register.signCashier')}: ____________</div>
    </Html>
  );
}

/**
 * GET /documents/register/{sessionId}[?format=thermal-80]: a cashier's Z report (an X report while
 * the session is open). Staff print their own sessions, managers any of the company's (the ledger
 * answers null otherwise: 404).
 */
export const registerKind: DocumentKindDef = {
  kind: 'register',
  needsId: true,
  async prepare(req, src) {
    if (req.id === undefined || !/^\d{1,9}$/.test(req.id) || Number(req.id) <= 0) throw new BadRequestException('The register session number must be a positive whole number.');
    const format = req.query.format;
    if (format !== undefined && format !== '' && format !== 'a4' && format !== 'thermal-80') throw new BadRequestException('format must be a4 or thermal-80.');
    const sessionId = Number(req.id);
    if (!req.user) throw new NotFoundException(`Register session ${sessionId} was not found.`);
    const [company, z] = await Promise.all([
      companyFor(req, src),
      src.ask(S.registerDocument, { companyId: req.companyId, sessionId, userId: req.user.id, manager: req.user.position === 'manager' }),
    ]);
    if (!z) throw new NotFoundException(`Register session ${sessionId} was not found.`);
    if (z.movements.length > REGISTER_MAX_MOVEMENTS) throw new BadRequestException(`Register session ${sessionId} has ${z.movements.length} money movements; at most ${REGISTER_MAX_MOVEMENTS} can be printed.`);
    const printedAt = new Date().toISOString();
    if (format === 'thermal-80') {
      return { element: <ThermalRegisterTemplate company={company} z={z} printedAt={printedAt} />, size: thermalSize('thermal-80'), fileName: `register-${sessionId}-80mm.pdf`, fitHeight: true };
    }
    return { element: <RegisterTemplate company={company} z={z} printedAt={printedAt} />, size: A4, fileName: `register-${sessionId}.pdf` };
  },
};
