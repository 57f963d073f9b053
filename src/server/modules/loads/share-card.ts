import type { TDb } from "../../../../db/client";
import { LANGUAGE_CODES, type TEquipmentType, type TLanguage } from "../../../shared/constants";
import { formatMoney } from "../../../shared/money";
import { defaultUnits, formatWeight, unitFormatFor } from "../../../shared/units";
import { isLanguage, translate } from "../../i18n";
import { publicPreview } from "./loads";

/**
 * What a chat app shows for a shared link (Open Graph and Twitter tags): WhatsApp, Telegram and the rest read the HTML
 * without running the app, so the server writes the card. A load's card shows what its public preview shows (route,
 * equipment, weight, budget) and nothing else; any other page gets the site's card. Its language is the link's own
 * (`?lang=am`, which the app's share button adds) or the reader's (cookie, Accept-Language).
 */
export const EQUIPMENT_WORDS: Record<TEquipmentType, { id: string; message: string; comment: string }> = {
  dry_van: /*i18n*/ {
    id: "share.equipment.dry_van",
    message: "Dry van",
    comment: "Truck/equipment type on a shared load's link preview: a closed box trailer (dry van), not a minibus",
  },
  refrigerated: /*i18n*/ {
    id: "share.equipment.refrigerated",
    message: "Refrigerated",
    comment: "Truck/equipment type on a shared load's link preview: a refrigerated truck or trailer (reefer)",
  },
  flatbed: /*i18n*/ {
    id: "share.equipment.flatbed",
    message: "Flatbed",
    comment: "Truck/equipment type on a shared load's link preview: a flat open trailer without sides, not a bed",
  },
  step_deck: /*i18n*/ {
    id: "share.equipment.step_deck",
    message: "Step deck",
    comment: "Truck/equipment type on a shared load's link preview: a trailer with two deck levels (step deck)",
  },
  lowboy: /*i18n*/ {
    id: "share.equipment.lowboy",
    message: "Lowboy",
    comment: "Truck/equipment type on a shared load's link preview: a low trailer for heavy machines (lowbed)",
  },
  tanker: /*i18n*/ {
    id: "share.equipment.tanker",
    message: "Tanker",
    comment: "Truck/equipment type on a shared load's link preview: a tank truck for liquids",
  },
  container: /*i18n*/ {
    id: "share.equipment.container",
    message: "Container",
    comment: "Truck/equipment type on a shared load's link preview: a truck for shipping containers",
  },
};

const SITE_DESCRIPTION = /*i18n*/ {
  id: "share.site.description",
  message: "The freight marketplace for drivers and shippers: find loads near you, bid, and run the trip.",
  comment: "Text under the MyTess name when a link to the site is shared in a chat app (link preview)",
};
const LOAD_TITLE = /*i18n*/ {
  id: "share.load.title",
  message: "{title} · MyTess",
  comment: "Title of a shared load's link preview in a chat app: the load's own title, then the site's name",
};
const LOAD_DESCRIPTION = /*i18n*/ {
  id: "share.load.description",
  message: "{from} → {to} · {equipment} · {weight} · {budget}",
  comment:
    "Text of a shared load's link preview: pickup place → delivery place, equipment type, weight, the shipper's budget",
};

export type TShareCard = { title: string; description: string; url: string; image: string; language: TLanguage };

/** The link's language: `?lang=` when it names one of ours, else what the reader's browser says. */
export const shareLanguage = (url: URL, fallback: TLanguage): TLanguage => {
  const lang = url.searchParams.get("lang")?.slice(0, 2).toLowerCase();
  return isLanguage(lang) ? lang : fallback;
};

const OG_LOCALE: Record<TLanguage, string> = { en: "en_US", am: "am_ET", om: "om_ET" };

/** The card for a page: a MyTess load's when `loadId` is one a visitor may see, else the site's. */
export const shareCard = async (
  db: TDb,
  p: { loadId: number | null; language: TLanguage; region: string | null; origin: string; path: string },
): Promise<TShareCard> => {
  const image = `${p.origin}/icon-512.png`;
  const url = `${p.origin}${p.path}`;
  const load = p.loadId != null ? await publicPreview(db, p.loadId).catch(() => null) : null;
  if (!load)
    return { title: "MyTess", description: translate(p.language, SITE_DESCRIPTION), url, image, language: p.language };
  const format = unitFormatFor(defaultUnits({ language: p.language, region: p.region }), p.language);
  const equipment = EQUIPMENT_WORDS[load.equipmentType as TEquipmentType];
  return {
    title: translate(p.language, LOAD_TITLE, { title: load.title }),
    description: translate(p.language, LOAD_DESCRIPTION, {
      from: load.pickupLocation,
      to: load.deliveryLocation,
      equipment: equipment ? translate(p.language, equipment) : load.equipmentType,
      weight: formatWeight(load.weight, format),
      budget: formatMoney(load.budgetAmount, load.budgetCurrency, format.locale),
    }),
    url,
    image,
    language: p.language,
  };
};

const attr = (v: string) =>
  v.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** The card as the `<title>` and `<meta>` elements of the page's head. */
export const shareCardTags = (c: TShareCard) =>
  [
    `<title>${attr(c.title)}</title>`,
    `<meta name="description" content="${attr(c.description)}" />`,
    `<meta property="og:site_name" content="MyTess" />`,
    `<meta property="og:type" content="website" />`,
    `<meta property="og:title" content="${attr(c.title)}" />`,
    `<meta property="og:description" content="${attr(c.description)}" />`,
    `<meta property="og:url" content="${attr(c.url)}" />`,
    `<meta property="og:image" content="${attr(c.image)}" />`,
    `<meta property="og:image:width" content="512" />`,
    `<meta property="og:image:height" content="512" />`,
    `<meta property="og:locale" content="${OG_LOCALE[c.language]}" />`,
    ...LANGUAGE_CODES.filter((l) => l !== c.language).map(
      (l) => `<meta property="og:locale:alternate" content="${OG_LOCALE[l]}" />`,
    ),
    `<meta name="twitter:card" content="summary" />`,
    `<meta name="twitter:title" content="${attr(c.title)}" />`,
    `<meta name="twitter:description" content="${attr(c.description)}" />`,
    `<meta name="twitter:image" content="${attr(c.image)}" />`,
  ].join("");
