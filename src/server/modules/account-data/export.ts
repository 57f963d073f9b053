// The owner's copy of their account (GET /api/user/export): every table that holds their rows, read a page at a time
// in id order and turned into the file's shape page by page, so a long history is never held as raw rows beside its
// export. Secrets and other people's data stay out; `omitted` says what was left out.
import { and, asc, eq, gt, gte, inArray, or, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { first, type TDb } from "../../../../db/client";
import {
  apiTokens,
  bids,
  freightPayments,
  loadDocuments,
  loads,
  loginFailures,
  messages,
  messagingPreferences,
  notifications,
  payments,
  payoutMethods,
  pushPreferences,
  ratings,
  savedSearches,
  sessions,
  type User,
  verificationFiles,
  verifications,
  webhookEndpoints,
} from "../../../../db/tables";
import type { TAccountExport } from "../../../shared/schemas/answers/account-data";
import { AppError } from "../../errors";
import { maskedNumber } from "../payouts/payouts";

/** Rows read per query: a page, then the next after its last id. */
export const EXPORT_PAGE = 500;
/** One export per account per minute: it reads every table the account has rows in. */
export const EXPORT_EVERY_MS = 60_000;

/** What the file leaves out, in its own `omitted` field. */
export const EXPORT_OMITTED = [
  "password hash",
  "session tokens (only when each session started and was last seen)",
  "API token secrets and hashes (only names, scopes and dates)",
  "webhook signing secrets",
  "sealed credentials of load boards, stores and payment providers",
  "payout account numbers except their last four digits, and Stripe account ids",
  "one-time codes and links (SMS codes, password reset and email links, Telegram link tokens)",
  "the contents of uploaded files (documents and verification files are listed, not included)",
  "other people's profiles, bids and ratings beyond the ids of the loads you shared with them",
  "loads copied from external load boards (they belong to the board)",
];

const iso = (ms: number) => new Date(ms).toISOString();
const isoOrNull = (ms: number | null | undefined) => (ms == null ? null : iso(ms));

/**
 * Reads a table a page at a time (id order, `id > last`) and maps each page before reading the next; the mapped
 * rows are all that is kept.
 */
const paged = async <R extends { id: number }, T>(
  read: (after: SQL, limit: number) => Promise<R[]>,
  id: SQLiteColumn,
  map: (row: R) => T,
): Promise<T[]> => {
  const out: T[] = [];
  let last = 0;
  for (;;) {
    const page = await read(gt(id, last), EXPORT_PAGE);
    for (const row of page) out.push(map(row));
    if (page.length < EXPORT_PAGE) return out;
    last = page[page.length - 1]!.id;
  }
};

/** "•••• 1234": enough for the owner to recognise the account, useless to anyone else. */

const loadOf = (l: typeof loads.$inferSelect) => ({
  id: l.id,
  title: l.title,
  description: l.description,
  status: l.status,
  pickup: { address: l.pickupAddress, city: l.pickupCity, country: l.pickupCountry, date: iso(l.pickupDate) },
  delivery: { address: l.deliveryAddress, city: l.deliveryCity, country: l.deliveryCountry, date: iso(l.deliveryDate) },
  weightLbs: l.weightLbs,
  equipmentType: l.equipmentType,
  budgetMinor: l.budgetMinor,
  budgetCurrency: l.budgetCurrency,
  agreedAmountMinor: l.agreedAmountMinor,
  agreedCurrency: l.agreedCurrency,
  specialInstructions: l.specialInstructions,
  createdAt: iso(l.createdAt),
  completedAt: isoOrNull(l.completedAt),
  cancelledAt: isoOrNull(l.cancelledAt),
});

/**
 * Takes the account's one export of the minute (a row in the shared sign-in limits table, so every server process
 * counts it), or refuses with the seconds to wait.
 */
export const reserveExport = (db: TDb, userId: number, now = Date.now()) =>
  db.transaction(async (tx) => {
    const key = `export:${userId}`;
    await db.q.lockKeys(tx, [key]);
    const [recent] = await tx
      .select({ at: loginFailures.at })
      .from(loginFailures)
      .where(and(eq(loginFailures.key, key), gte(loginFailures.at, now - EXPORT_EVERY_MS)))
      .orderBy(asc(loginFailures.at))
      .limit(1);
    if (recent) {
      const seconds = Math.max(1, Math.ceil((recent.at + EXPORT_EVERY_MS - now) / 1000));
      throw new AppError(
        "TOO_MANY_REQUESTS",
        /*i18n*/ {
          id: "error.export.tooSoon",
          message: "Your data was downloaded a moment ago. Try again in {seconds} seconds.",
          values: { seconds },
        },
        { retryAfterSeconds: seconds },
      );
    }
    await tx.insert(loginFailures).values({ key, at: now });
  });

/** The account's data as the owner downloads it. */
export const exportAccount = async (db: TDb, user: User, now = Date.now()): Promise<TAccountExport> => {
  const me = user.id;
  const push = first(await db.select().from(pushPreferences).where(eq(pushPreferences.userId, me)).limit(1));
  const messaging = first(
    await db.select().from(messagingPreferences).where(eq(messagingPreferences.userId, me)).limit(1),
  );

  const loadsPosted = await paged(
    (after, limit) =>
      db
        .select()
        .from(loads)
        .where(and(eq(loads.shipperId, me), eq(loads.sourceType, "mytess"), after))
        .orderBy(asc(loads.id))
        .limit(limit),
    loads.id,
    loadOf,
  );
  const tripsDriven = await paged(
    (after, limit) =>
      db
        .select()
        .from(loads)
        .where(and(eq(loads.assignedDriverId, me), after))
        .orderBy(asc(loads.id))
        .limit(limit),
    loads.id,
    loadOf,
  );
  const myBids = await paged(
    (after, limit) =>
      db
        .select()
        .from(bids)
        .where(and(eq(bids.driverId, me), after))
        .orderBy(asc(bids.id))
        .limit(limit),
    bids.id,
    (b) => ({
      id: b.id,
      loadId: b.loadId,
      amountMinor: b.amountMinor,
      currency: b.currency,
      status: b.status,
      notes: b.notes,
      createdAt: iso(b.createdAt),
    }),
  );
  // The account's conversations: as the driver side, or on loads it posted (the shipper side).
  const myMessages = await paged(
    (after, limit) =>
      db
        .select({
          id: messages.id,
          loadId: messages.loadId,
          senderId: messages.senderId,
          body: messages.body,
          readAt: messages.readAt,
          createdAt: messages.createdAt,
        })
        .from(messages)
        .innerJoin(loads, eq(loads.id, messages.loadId))
        .where(and(or(eq(messages.driverId, me), eq(loads.shipperId, me)), after))
        .orderBy(asc(messages.id))
        .limit(limit),
    messages.id,
    (m) => ({
      id: m.id,
      loadId: m.loadId,
      sentByMe: m.senderId === me,
      body: m.body,
      readAt: isoOrNull(m.readAt),
      createdAt: iso(m.createdAt),
    }),
  );
  const myNotifications = await paged(
    (after, limit) =>
      db
        .select()
        .from(notifications)
        .where(and(eq(notifications.userId, me), after))
        .orderBy(asc(notifications.id))
        .limit(limit),
    notifications.id,
    (n) => ({
      id: n.id,
      type: n.type,
      title: n.title,
      body: n.body,
      channel: n.channel,
      status: n.status,
      loadId: n.loadId,
      readAt: isoOrNull(n.readAt),
      createdAt: iso(n.createdAt),
    }),
  );
  const documents = await paged(
    (after, limit) =>
      db
        .select()
        .from(loadDocuments)
        .where(and(eq(loadDocuments.uploaderId, me), after))
        .orderBy(asc(loadDocuments.id))
        .limit(limit),
    loadDocuments.id,
    (d) => ({
      id: d.id,
      loadId: d.loadId,
      type: d.type,
      fileName: d.fileName,
      contentType: d.contentType,
      size: d.size,
      createdAt: iso(d.createdAt),
    }),
  );
  const myPayments = await paged(
    (after, limit) =>
      db
        .select()
        .from(payments)
        .where(and(eq(payments.userId, me), after))
        .orderBy(asc(payments.id))
        .limit(limit),
    payments.id,
    (p) => ({
      id: p.id,
      provider: p.provider,
      status: p.status,
      amountMinor: p.amountMinor,
      currency: p.currency,
      months: p.months,
      periodStart: isoOrNull(p.periodStart),
      periodEnd: isoOrNull(p.periodEnd),
      createdAt: iso(p.createdAt),
    }),
  );
  const myFreight = await paged(
    (after, limit) =>
      db
        .select()
        .from(freightPayments)
        .where(and(or(eq(freightPayments.shipperId, me), eq(freightPayments.driverId, me)), after))
        .orderBy(asc(freightPayments.id))
        .limit(limit),
    freightPayments.id,
    (p) => ({
      id: p.id,
      loadId: p.loadId,
      role: p.shipperId === me ? ("shipper" as const) : ("driver" as const),
      provider: p.provider,
      state: p.state,
      currency: p.currency,
      agreedMinor: p.agreedMinor,
      feeMinor: p.feeMinor,
      createdAt: iso(p.createdAt),
    }),
  );
  const payouts = (await db.select().from(payoutMethods).where(eq(payoutMethods.userId, me))).map((p) => ({
    provider: p.provider,
    bankName: p.bankName,
    mobileMoney: p.mobileMoney,
    accountNumber: maskedNumber(p.accountLast4),
    accountName: p.accountName,
    payoutsEnabled: p.payoutsEnabled,
    createdAt: iso(p.createdAt),
  }));
  const ratingOf = (r: typeof ratings.$inferSelect) => ({
    loadId: r.loadId,
    score: r.score,
    createdAt: iso(r.createdAt),
  });
  const ratingsGiven = await paged(
    (after, limit) =>
      db
        .select()
        .from(ratings)
        .where(and(eq(ratings.raterId, me), after))
        .orderBy(asc(ratings.id))
        .limit(limit),
    ratings.id,
    ratingOf,
  );
  const ratingsReceived = await paged(
    (after, limit) =>
      db
        .select()
        .from(ratings)
        .where(and(eq(ratings.rateeId, me), after))
        .orderBy(asc(ratings.id))
        .limit(limit),
    ratings.id,
    ratingOf,
  );
  const submissions = await db
    .select()
    .from(verifications)
    .where(eq(verifications.submittedBy, me))
    .orderBy(asc(verifications.id));
  const files = submissions.length
    ? await db
        .select()
        .from(verificationFiles)
        .where(
          inArray(
            verificationFiles.verificationId,
            submissions.map((s) => s.id),
          ),
        )
    : [];
  const searches = await paged(
    (after, limit) =>
      db
        .select()
        .from(savedSearches)
        .where(and(eq(savedSearches.userId, me), after))
        .orderBy(asc(savedSearches.id))
        .limit(limit),
    savedSearches.id,
    (s) => ({
      id: s.id,
      name: s.name,
      params: JSON.parse(s.params) as unknown,
      originName: s.originName,
      destinationName: s.destinationName,
      createdAt: iso(s.createdAt),
    }),
  );
  const mySessions = await db
    .select({ createdAt: sessions.createdAt, lastSeenAt: sessions.lastSeenAt, userAgent: sessions.userAgent })
    .from(sessions)
    .where(eq(sessions.userId, me));
  const tokens = await db
    .select({
      name: apiTokens.name,
      scopes: apiTokens.scopes,
      createdAt: apiTokens.createdAt,
      lastUsedAt: apiTokens.lastUsedAt,
    })
    .from(apiTokens)
    .where(eq(apiTokens.userId, me));
  const endpoints = await db
    .select({ url: webhookEndpoints.url, events: webhookEndpoints.events, createdAt: webhookEndpoints.createdAt })
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.userId, me));

  return {
    format: "mytess-export/1",
    exportedAt: iso(now),
    profile: {
      id: user.id,
      email: user.email,
      emailVerifiedAt: isoOrNull(user.emailVerifiedAt),
      phone: user.phone,
      firstName: user.firstName,
      lastName: user.lastName,
      profileImageUrl: user.profileImageUrl,
      userType: user.userType,
      signInWith: [
        ...(user.passwordHash ? (["password"] as const) : []),
        ...(user.phone ? (["phone"] as const) : []),
        ...(user.oidcSubject ? (["oidc"] as const) : []),
      ],
      createdAt: iso(user.createdAt),
      location:
        user.latitude != null && user.longitude != null
          ? { latitude: user.latitude, longitude: user.longitude, updatedAt: isoOrNull(user.locationUpdatedAt) }
          : null,
      rating: { sum: user.ratingSum, count: user.totalRatings, trips: user.totalTrips },
      premium: {
        trialEndsAt: iso(user.trialEndsAt),
        paidUntil: isoOrNull(user.paidUntil),
        cancelledAt: isoOrNull(user.subscriptionCancelledAt),
        provider: user.billingProvider,
      },
    },
    settings: {
      currency: user.currency,
      language: user.language,
      calendar: user.calendar,
      ethiopianTime: user.ethiopianTime,
      units: user.units,
      isAvailable: user.isAvailable,
      push: push ? (({ userId: _u, ...rest }) => rest)(push) : null,
      messaging: messaging ? (({ userId: _u, ...rest }) => rest)(messaging) : null,
    },
    loadsPosted,
    tripsDriven,
    bids: myBids,
    messages: myMessages,
    notifications: myNotifications,
    documents,
    payments: myPayments,
    freightPayments: myFreight,
    payoutMethods: payouts,
    ratingsGiven,
    ratingsReceived,
    verifications: submissions.map((v) => ({
      id: v.id,
      status: v.status,
      country: v.country,
      tradeLicenceNumber: v.tradeLicenceNumber,
      tin: v.tin,
      mcNumber: v.mcNumber,
      dotNumber: v.dotNumber,
      insuranceExpiresOn: v.insuranceExpiresOn,
      reason: v.reason,
      reviewedAt: isoOrNull(v.reviewedAt),
      createdAt: iso(v.createdAt),
      files: files
        .filter((f) => f.verificationId === v.id)
        .map((f) => ({ kind: f.kind, fileName: f.fileName, contentType: f.contentType, size: f.size })),
    })),
    savedSearches: searches,
    sessions: mySessions.map((s) => ({
      createdAt: iso(s.createdAt),
      lastSeenAt: iso(s.lastSeenAt),
      userAgent: s.userAgent,
    })),
    apiTokens: tokens.map((t) => ({
      name: t.name,
      scopes: t.scopes.split(" ").filter(Boolean),
      createdAt: iso(t.createdAt),
      lastUsedAt: isoOrNull(t.lastUsedAt),
    })),
    webhookEndpoints: endpoints.map((e) => ({
      url: e.url,
      events: e.events.split(" ").filter(Boolean),
      createdAt: iso(e.createdAt),
    })),
    omitted: EXPORT_OMITTED,
  };
};

/** The download's file name: mytess-export-<YYYY-MM-DD>.json (UTC). */
export const exportFileName = (now = Date.now()) => `mytess-export-${iso(now).slice(0, 10)}.json`;
