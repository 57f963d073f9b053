import type { MessageDescriptor } from "@lingui/core";
import { eq, inArray } from "drizzle-orm";
import type { TDb } from "../../../../db/client";
import { freightPaymentEvents, freightPayments, loads, type User, users } from "../../../../db/tables";
import type { TLanguage } from "../../../shared/constants";
import { CALENDARS, type TCalendar } from "../../../shared/dates";
import { placeLabel } from "../../../shared/place";
import type { TFreightPaymentState } from "../../../shared/schemas/payments";
import { AppError } from "../../errors";
import { translate } from "../../i18n";
import { createPdf } from "../../pdf/pdf";
import { actsAsShipper } from "../companies/work";
import { PAYMENT_NOT_FOUND } from "./resolve";

const M = {
  title: /*i18n*/ {
    id: "pdf.receipt.title",
    message: "Payment receipt",
    comment: "Title of the PDF receipt of a freight payment (shipper pays, MyTess holds it, the driver is paid)",
  },
  subtitle: /*i18n*/ {
    id: "pdf.receipt.subtitle",
    message: "Payment #{id} · Load #{loadId} · {title}",
    comment: "Under the receipt's title: the payment's number, the load's number and the load's title",
  },
  parties: /*i18n*/ { id: "pdf.receipt.parties", message: "Parties", comment: "PDF section heading: payer and payee" },
  payer: /*i18n*/ {
    id: "pdf.receipt.payer",
    message: "Payer (shipper)",
    comment: "PDF row label: the shipper, who pays for the load",
  },
  payee: /*i18n*/ {
    id: "pdf.receipt.payee",
    message: "Payee (driver)",
    comment: "PDF row label: the driver, who is paid for the trip",
  },
  load: /*i18n*/ { id: "pdf.receipt.load", message: "Load", comment: "PDF section heading: the freight load paid for" },
  route: /*i18n*/ {
    id: "pdf.receipt.route",
    message: "Route",
    comment: "PDF row label: from the pickup place to the delivery place",
  },
  pickupDate: /*i18n*/ {
    id: "pdf.receipt.pickupDate",
    message: "Pickup date",
    comment: "PDF row label: the date the load is picked up",
  },
  deliveryDate: /*i18n*/ {
    id: "pdf.receipt.deliveryDate",
    message: "Delivery date",
    comment: "PDF row label: the date the load is delivered",
  },
  amounts: /*i18n*/ { id: "pdf.receipt.amounts", message: "Amounts", comment: "PDF section heading: the money" },
  agreed: /*i18n*/ {
    id: "pdf.receipt.agreed",
    message: "Agreed price",
    comment: "PDF row label: the price of the trip agreed at the award",
  },
  fee: /*i18n*/ {
    id: "pdf.receipt.fee",
    message: "Platform fee ({percent}%)",
    comment: "PDF row label: MyTess's fee, paid by the shipper on top of the agreed price",
  },
  totalPaid: /*i18n*/ {
    id: "pdf.receipt.totalPaid",
    message: "Total paid by the shipper",
    comment: "PDF row label (shipper's receipt): agreed price plus platform fee",
  },
  totalDriver: /*i18n*/ {
    id: "pdf.receipt.totalDriver",
    message: "Total for the driver",
    comment: "PDF row label (driver's receipt): what the driver is paid for the trip",
  },
  currency: /*i18n*/ {
    id: "pdf.receipt.currency",
    message: "Currency",
    comment: "PDF row label: the currency of the payment (ETB, USD, EUR)",
  },
  payment: /*i18n*/ {
    id: "pdf.receipt.payment",
    message: "Payment",
    comment: "PDF section heading: the payment's state, provider and reference",
  },
  state: /*i18n*/ { id: "pdf.receipt.state", message: "State", comment: "PDF row label: the payment's current state" },
  provider: /*i18n*/ {
    id: "pdf.receipt.provider",
    message: "Provider",
    comment: "PDF row label: the payment company (Stripe or Chapa)",
  },
  reference: /*i18n*/ {
    id: "pdf.receipt.reference",
    message: "Provider reference",
    comment: "PDF row label: the payment company's id of the checkout (Stripe session or Chapa tx_ref)",
  },
  chargeReference: /*i18n*/ {
    id: "pdf.receipt.chargeReference",
    message: "Charge reference",
    comment: "PDF row label: the payment company's id of the money actually taken from the shipper",
  },
  history: /*i18n*/ {
    id: "pdf.receipt.history",
    message: "History",
    comment: "PDF section heading: each state the payment went through, with its date",
  },
  when: /*i18n*/ { id: "pdf.receipt.when", message: "Date", comment: "PDF table header: when a state was entered" },
  generated: /*i18n*/ {
    id: "pdf.receipt.generated",
    message: "Made by MyTess on {date}. Payment #{id}.",
    comment: "Small print at the end of the receipt PDF: when the file was made",
  },
} as const;

const STATES: Record<TFreightPaymentState, MessageDescriptor> = {
  awaiting_payment: /*i18n*/ {
    id: "pdf.receipt.state.awaitingPayment",
    message: "Awaiting payment",
    comment: "Freight payment state: the shipper has not paid yet",
  },
  funded: /*i18n*/ {
    id: "pdf.receipt.state.funded",
    message: "Payment secured",
    comment: "Freight payment state: the shipper paid; MyTess holds it",
  },
  released: /*i18n*/ {
    id: "pdf.receipt.state.released",
    message: "Released to the driver",
    comment: "Freight payment state: the driver's share is sent",
  },
  paid_out: /*i18n*/ {
    id: "pdf.receipt.state.paidOut",
    message: "Paid out",
    comment: "Freight payment state: the driver received the money",
  },
  refunded: /*i18n*/ {
    id: "pdf.receipt.state.refunded",
    message: "Refunded",
    comment: "Freight payment state: the money went back to the shipper",
  },
  disputed: /*i18n*/ {
    id: "pdf.receipt.state.disputed",
    message: "Held: disputed",
    comment: "Freight payment state: held while the delivery is disputed",
  },
  failed: /*i18n*/ {
    id: "pdf.receipt.state.failed",
    message: "Payment failed",
    comment: "Freight payment state: the payment did not go through",
  },
};

/** How the reader reads: their language (the request's) and their device's time zone; the calendar is their account's. */
export type TReceiptReader = { language: TLanguage; timeZone?: string | null };

const calendarOf = (u: User): TCalendar =>
  (CALENDARS as readonly string[]).includes(u.calendar) ? (u.calendar as TCalendar) : "gregorian";

const validZone = (zone: string | null | undefined) => {
  if (!zone) return undefined;
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone });
    return zone;
  } catch {
    return undefined;
  }
};

/** A checkout whose provider call never answered keeps its placeholder reference: not the provider's, so not shown. */
const providerReference = (ref: string) => (ref.startsWith("pending-") ? null : ref);

/**
 * A freight payment's receipt as a PDF, for either of its parties (the shipper's side: also the owners and staff of
 * the load's shipper company), in their language and calendar: payer and payee,
 * the load, the amounts, the state and its history, the provider's references. The platform's fee is the shipper's
 * business (the payments list shows the driver none), so the driver's receipt shows the agreed price as their total.
 * Another account's (or a missing) payment is 404.
 */
export const paymentReceiptPdf = async (db: TDb, actor: User, paymentId: number, reader: TReceiptReader) => {
  const [p] = await db.select().from(freightPayments).where(eq(freightPayments.id, paymentId));
  if (!p) throw new AppError("NOT_FOUND", PAYMENT_NOT_FOUND);
  const [load] = await db.select().from(loads).where(eq(loads.id, p.loadId));
  if (!load) throw new AppError("NOT_FOUND", PAYMENT_NOT_FOUND);
  // The load's shipper (its poster, or an owner or staff member of its shipper company) or its driver.
  const isShipper = await actsAsShipper(db, load, actor);
  if (!isShipper && p.driverId !== actor.id) throw new AppError("NOT_FOUND", PAYMENT_NOT_FOUND);
  const people = await db
    .select({ id: users.id, firstName: users.firstName, lastName: users.lastName, phone: users.phone })
    .from(users)
    .where(inArray(users.id, [p.shipperId, p.driverId]));
  const history = await db
    .select()
    .from(freightPaymentEvents)
    .where(eq(freightPaymentEvents.paymentId, p.id))
    .orderBy(freightPaymentEvents.id);
  const language = reader.language;
  const t = (m: MessageDescriptor, values?: Record<string, unknown>) => translate(language, m, values);
  const pdf = createPdf(
    { language, calendar: calendarOf(actor), timeZone: validZone(reader.timeZone) ?? "UTC" },
    { title: `${t(M.title)} #${p.id}` },
  );
  const person = (id: number) => {
    const u = people.find((x) => x.id === id);
    if (!u) return "-";
    const name = `${u.firstName} ${u.lastName}`.trim();
    return u.phone ? `${name} · ${u.phone}` : name;
  };
  const agreedMinor = Number(p.agreedMinor);
  const feeMinor = Number(p.feeMinor);
  const stateLabel = (s: string) => (s in STATES ? t(STATES[s as TFreightPaymentState]) : s);

  pdf.title(t(M.title), t(M.subtitle, { id: p.id, loadId: load.id, title: load.title }));
  pdf.heading(t(M.parties));
  pdf.rows([
    [t(M.payer), person(p.shipperId)],
    [t(M.payee), person(p.driverId)],
  ]);
  pdf.heading(t(M.load));
  pdf.rows([
    [
      t(M.route),
      `${placeLabel(load.pickupAddress, load.pickupCity, load.pickupState, load.pickupCountry)} – ${placeLabel(load.deliveryAddress, load.deliveryCity, load.deliveryState, load.deliveryCountry)}`,
    ],
    [t(M.pickupDate), pdf.date(load.pickupDate)],
    [t(M.deliveryDate), pdf.date(load.deliveryDate)],
  ]);
  pdf.heading(t(M.amounts));
  pdf.rows([
    [t(M.agreed), pdf.money(agreedMinor, p.currency)],
    ...(isShipper
      ? ([
          [
            t(M.fee, { percent: agreedMinor ? Math.round((feeMinor / agreedMinor) * 1000) / 10 : 0 }),
            pdf.money(feeMinor, p.currency),
          ],
          [t(M.totalPaid), pdf.money(agreedMinor + feeMinor, p.currency)],
        ] as [string, string][])
      : ([[t(M.totalDriver), pdf.money(agreedMinor, p.currency)]] as [string, string][])),
    [t(M.currency), p.currency],
  ]);
  pdf.heading(t(M.payment));
  const ref = providerReference(p.providerRef);
  pdf.rows([
    [t(M.state), stateLabel(p.state)],
    [t(M.provider), p.provider === "stripe" ? "Stripe" : "Chapa"],
    ...(ref ? [[t(M.reference), ref] as [string, string]] : []),
    ...(p.chargeRef && p.chargeRef !== ref ? [[t(M.chargeReference), p.chargeRef] as [string, string]] : []),
  ]);
  if (history.length) {
    pdf.heading(t(M.history));
    pdf.table({
      columns: [
        { header: t(M.when), width: 0.45 },
        { header: t(M.state), width: 0.55 },
      ],
      rows: history.map((h) => [pdf.date(Number(h.createdAt), true), stateLabel(h.state)]),
    });
  }
  pdf.space();
  pdf.paragraph(t(M.generated, { date: pdf.date(Date.now(), true), id: p.id }), { muted: true, size: 8 });
  return { fileName: `receipt-${p.id}.pdf`, bytes: await pdf.finish() };
};
