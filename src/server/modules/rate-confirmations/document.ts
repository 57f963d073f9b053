import type { TDb } from "../../../../db/client";
import type { User } from "../../../../db/tables";
import type { TEquipmentType, TLanguage } from "../../../shared/constants";
import { CALENDARS, type TCalendar } from "../../../shared/dates";
import { toMinor } from "../../../shared/money";
import { placeLabel } from "../../../shared/place";
import { formatWeight, unitFormatFor } from "../../../shared/units";
import { translate } from "../../i18n";
import { createPdf } from "../../pdf/pdf";
import { awardedTruckOf } from "../bids/bids";
import { EQUIPMENT_WORDS } from "../loads/share-card";
import { awardedLoadFor, rateConfirmationOf } from "./rate-confirmation";

const M = {
  title: /*i18n*/ {
    id: "pdf.rateConfirmation.title",
    message: "Rate confirmation",
    comment: "Title of the PDF both parties get at a load's award: the agreed price and terms of the trip",
  },
  subtitle: /*i18n*/ {
    id: "pdf.rateConfirmation.subtitle",
    message: "Load #{id} · {title}",
    comment: "Under the rate confirmation's title: the load's number and its own title",
  },
  parties: /*i18n*/ {
    id: "pdf.rateConfirmation.parties",
    message: "Parties",
    comment: "PDF section heading: shipper and driver",
  },
  shipper: /*i18n*/ {
    id: "pdf.rateConfirmation.shipper",
    message: "Shipper",
    comment: "PDF row label: the load's shipper",
  },
  driver: /*i18n*/ {
    id: "pdf.rateConfirmation.driver",
    message: "Driver",
    comment: "PDF row label: the awarded driver",
  },
  load: /*i18n*/ {
    id: "pdf.rateConfirmation.load",
    message: "Load",
    comment: "PDF section heading: the freight load's details",
  },
  pickup: /*i18n*/ { id: "pdf.rateConfirmation.pickup", message: "Pickup", comment: "PDF row label: the pickup place" },
  pickupDate: /*i18n*/ {
    id: "pdf.rateConfirmation.pickupDate",
    message: "Pickup date",
    comment: "PDF row label: the date the load is picked up",
  },
  delivery: /*i18n*/ {
    id: "pdf.rateConfirmation.delivery",
    message: "Delivery place",
    comment: "PDF row label: where the load is delivered",
  },
  deliveryDate: /*i18n*/ {
    id: "pdf.rateConfirmation.deliveryDate",
    message: "Delivery date",
    comment: "PDF row label: the date the load is delivered",
  },
  equipment: /*i18n*/ {
    id: "pdf.rateConfirmation.equipment",
    message: "Equipment",
    comment: "PDF row label: the truck/trailer type the load needs (not a device)",
  },
  weight: /*i18n*/ {
    id: "pdf.rateConfirmation.weight",
    message: "Weight",
    comment: "PDF row label: the load's weight",
  },
  truck: /*i18n*/ {
    id: "pdf.rateConfirmation.truck",
    message: "Truck",
    comment: "PDF section heading: the driver's truck named on the accepted bid",
  },
  truckType: /*i18n*/ {
    id: "pdf.rateConfirmation.truckType",
    message: "Truck type",
    comment: "PDF row label: the kind of truck/trailer the driver offered (flatbed, reefer…), not a device",
  },
  plate: /*i18n*/ {
    id: "pdf.rateConfirmation.plate",
    message: "Plate number",
    comment: "PDF row label: the truck's licence plate (registration) number",
  },
  capacity: /*i18n*/ {
    id: "pdf.rateConfirmation.capacity",
    message: "Capacity",
    comment: "PDF row label: how much weight the driver's truck can carry",
  },
  instructions: /*i18n*/ {
    id: "pdf.rateConfirmation.instructions",
    message: "Special instructions",
    comment: "PDF row label: the shipper's instructions for the trip",
  },
  rate: /*i18n*/ {
    id: "pdf.rateConfirmation.rate",
    message: "Agreed rate",
    comment: "PDF section heading: the price agreed at the award",
  },
  amount: /*i18n*/ {
    id: "pdf.rateConfirmation.amount",
    message: "Agreed amount",
    comment: "PDF row label: the price the shipper pays the driver for the trip",
  },
  awardedOn: /*i18n*/ {
    id: "pdf.rateConfirmation.awardedOn",
    message: "Awarded on",
    comment: "PDF row label: when the shipper gave the load to the driver",
  },
  terms: /*i18n*/ {
    id: "pdf.rateConfirmation.terms",
    message: "Terms",
    comment: "PDF section heading: the trip's conditions",
  },
  term1: /*i18n*/ {
    id: "pdf.rateConfirmation.term1",
    message:
      "1. The driver picks up and delivers the load described above on the dates shown, with the equipment type shown.",
  },
  term2: /*i18n*/ {
    id: "pdf.rateConfirmation.term2",
    message:
      "2. The shipper pays the agreed amount for the whole trip. When the payment is held by MyTess, it is released to the driver once the proof of delivery is accepted, or 48 hours after the delivery if the shipper neither accepts nor disputes it.",
  },
  term3: /*i18n*/ {
    id: "pdf.rateConfirmation.term3",
    message:
      "3. The driver records the delivery in MyTess with a proof of delivery: photos or the receiver's signature, and the receiver's name. The shipper may dispute the delivery within 48 hours, giving a reason.",
  },
  term4: /*i18n*/ {
    id: "pdf.rateConfirmation.term4",
    message:
      "4. Each party accepts this confirmation in the MyTess app; the account and time of each acceptance are recorded on the trip.",
  },
  acceptance: /*i18n*/ {
    id: "pdf.rateConfirmation.acceptance",
    message: "Acceptance",
    comment: "PDF section heading: whether each party accepted the rate confirmation",
  },
  acceptedOn: /*i18n*/ {
    id: "pdf.rateConfirmation.acceptedOn",
    message: "Accepted on {date}",
    comment: "PDF: when a party accepted the rate confirmation in the app",
  },
  notAccepted: /*i18n*/ {
    id: "pdf.rateConfirmation.notAccepted",
    message: "Not accepted yet",
    comment: "PDF: the party has not accepted the rate confirmation in the app yet",
  },
  generated: /*i18n*/ {
    id: "pdf.rateConfirmation.generated",
    message: "Made by MyTess on {date}. Load #{id}.",
    comment: "Small print at the end of the rate confirmation PDF: when the file was made",
  },
} as const;

/** How the reader reads: their language (the request's), their account's calendar, their device's time zone. */
export type TPdfReaderInput = { language: TLanguage; timeZone?: string | null };

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

/** The rate confirmation as a PDF for one of the load's parties, in their language and calendar. */
export const rateConfirmationPdf = async (db: TDb, actor: User, loadId: number, reader: TPdfReaderInput) => {
  const { load } = await awardedLoadFor(db, actor, loadId);
  const state = await rateConfirmationOf(db, actor, loadId);
  const language = reader.language;
  const t = (m: (typeof M)[keyof typeof M], values?: Record<string, unknown>) => translate(language, m, values);
  const pdf = createPdf(
    { language, calendar: calendarOf(actor), timeZone: validZone(reader.timeZone) ?? "UTC" },
    { title: `${t(M.title)} #${load.id}` },
  );
  const truck = await awardedTruckOf(db, load);
  const unitFormat = unitFormatFor(actor.units, language);
  const equipmentWord = (type: string) => {
    const word = EQUIPMENT_WORDS[type as TEquipmentType];
    return word ? translate(language, word) : type;
  };
  const withPhone = (p: { name: string; phone: string | null }) => (p.phone ? `${p.name} · ${p.phone}` : p.name);
  const accepted = (a: { at: string } | null) =>
    a ? t(M.acceptedOn, { date: pdf.date(a.at, true) }) : t(M.notAccepted);

  pdf.title(t(M.title), t(M.subtitle, { id: load.id, title: load.title }));
  pdf.heading(t(M.parties));
  pdf.rows([
    [t(M.shipper), withPhone(state.shipper)],
    [t(M.driver), withPhone(state.driver)],
  ]);
  pdf.heading(t(M.load));
  pdf.rows([
    [t(M.pickup), placeLabel(load.pickupAddress, load.pickupCity, load.pickupState, load.pickupCountry)],
    [t(M.pickupDate), pdf.date(load.pickupDate)],
    [t(M.delivery), placeLabel(load.deliveryAddress, load.deliveryCity, load.deliveryState, load.deliveryCountry)],
    [t(M.deliveryDate), pdf.date(load.deliveryDate)],
    [t(M.equipment), equipmentWord(load.equipmentType)],
    [t(M.weight), formatWeight(load.weightLbs, unitFormat)],
    ...(load.specialInstructions ? [[t(M.instructions), load.specialInstructions] as [string, string]] : []),
  ]);
  // The truck the accepted bid named (copied onto the bid when it was placed): only when it named one; the plate only
  // when the driver gave it. Nothing is made up for a bid without a truck.
  if (truck) {
    pdf.heading(t(M.truck));
    pdf.rows([
      [t(M.truckType), equipmentWord(truck.equipmentType)],
      ...(truck.plate ? [[t(M.plate), truck.plate] as [string, string]] : []),
      [t(M.capacity), formatWeight(truck.capacityLbs, unitFormat)],
    ]);
  }
  pdf.heading(t(M.rate));
  pdf.rows([
    [t(M.amount), pdf.money(toMinor(state.agreed.amount, state.agreed.currency), state.agreed.currency)],
    ...(state.awardedAt ? [[t(M.awardedOn), pdf.date(state.awardedAt, true)] as [string, string]] : []),
  ]);
  pdf.heading(t(M.terms));
  for (const term of [M.term1, M.term2, M.term3, M.term4]) pdf.paragraph(t(term));
  pdf.heading(t(M.acceptance));
  pdf.rows([
    [`${t(M.shipper)}: ${state.shipper.name}`, accepted(state.accepted.shipper)],
    [`${t(M.driver)}: ${state.driver.name}`, accepted(state.accepted.driver)],
  ]);
  pdf.space();
  pdf.paragraph(t(M.generated, { date: pdf.date(Date.now(), true), id: load.id }), { muted: true, size: 8 });
  return { fileName: `rate-confirmation-${load.id}.pdf`, bytes: await pdf.finish() };
};
