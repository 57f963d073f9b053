// Verification of a subject: today an account (subject "user"), later a company, which is why every row names its
// subject apart from the account that sent it. Files go through the same storage and checks as load documents; an
// operator (the CLI, or an account the CLI named) approves or rejects a pending submission, and the newest approved
// submission is the subject's "Verified" badge.
import { and, desc, eq, inArray, isNull } from "drizzle-orm";
import type { TDb } from "../../../../db/client";
import {
  users,
  type Verification,
  type VerificationFile,
  verificationFiles,
  verifications,
} from "../../../../db/tables";
import type {
  TMyVerificationAnswer,
  TVerificationFile,
  TVerificationSubmission,
  TVerifiedBadge,
} from "../../../shared/schemas/answers/verification";
import type {
  TVerificationFileUploadInput,
  TVerificationStatus,
  TVerificationSubmitInput,
} from "../../../shared/schemas/verification";
import { AppError, type TMessage } from "../../errors";
import type { TStorage } from "../../storage/storage";
import { isOperator } from "../admin/operators";
import { prepareFile } from "../documents/files";

export type TSubject = { type: "user"; id: number };
/** Who asks: an account, or the operator's CLI (null). */
type TActor = { id: number } | null;

const EXTENSION: Record<string, string> = {
  "image/jpeg": "jpg",
  "image/png": "png",
  "image/webp": "webp",
  "application/pdf": "pdf",
};

const SUBMISSION_NOT_FOUND = /*i18n*/ { id: "error.verification.notFound", message: "Verification not found" };
const FILE_NOT_FOUND = /*i18n*/ { id: "error.verification.fileNotFound", message: "Verification file not found" };

const fieldError = (path: string, message: TMessage) =>
  new AppError("BAD_REQUEST", message, { issues: [{ path, message }] });

/** The subject an account's own verification is about. */
export const subjectOf = (actor: { id: number }): TSubject => ({ type: "user", id: actor.id });

/** Addis Ababa's date (UTC+3 all year), the day insurance dates are read in. */
export const addisDay = (ms: number) => new Date(ms + 3 * 60 * 60 * 1000).toISOString().slice(0, 10);

const iso = (ms: number | null) => (ms == null ? null : new Date(ms).toISOString());

export const toPublicFile = (f: VerificationFile): TVerificationFile => ({
  id: f.id,
  kind: f.kind,
  fileName: f.fileName,
  contentType: f.contentType,
  size: f.size,
  createdAt: new Date(f.createdAt).toISOString(),
  url: `/api/verification/files/${f.id}`,
});

/** Submissions with their files and subjects' names, in the order given. */
const toPublicSubmissions = async (db: TDb, rows: Verification[]): Promise<TVerificationSubmission[]> => {
  if (rows.length === 0) return [];
  const files = await db
    .select()
    .from(verificationFiles)
    .where(
      inArray(
        verificationFiles.verificationId,
        rows.map((r) => r.id),
      ),
    )
    .orderBy(verificationFiles.id);
  const names = await db
    .select({ id: users.id, firstName: users.firstName, lastName: users.lastName })
    .from(users)
    .where(
      inArray(
        users.id,
        rows.map((r) => r.subjectId),
      ),
    );
  const nameOf = new Map(names.map((n) => [n.id, `${n.firstName} ${n.lastName}`.trim()]));
  return rows.map((r) => ({
    id: r.id,
    subject: { type: r.subjectType, id: r.subjectId, name: nameOf.get(r.subjectId) ?? "" },
    status: r.status,
    country: r.country,
    tradeLicenceNumber: r.tradeLicenceNumber,
    tin: r.tin,
    mcNumber: r.mcNumber,
    dotNumber: r.dotNumber,
    insuranceExpiresOn: r.insuranceExpiresOn,
    reason: r.reason,
    reviewedAt: iso(r.reviewedAt),
    createdAt: new Date(r.createdAt).toISOString(),
    files: files.filter((f) => f.verificationId === r.id).map(toPublicFile),
  }));
};

/**
 * Stores a file for the caller's next submission: checked by its bytes and (images) re-encoded without metadata as
 * load documents are, written to storage, then recorded; a record that cannot be written takes its file back out.
 */
export const uploadVerificationFile = async (
  db: TDb,
  storage: TStorage,
  actor: { id: number },
  input: TVerificationFileUploadInput,
  now = Date.now(),
) => {
  const subject = subjectOf(actor);
  const file = await prepareFile("other", input.file.type, input.file.data);
  const ext = EXTENSION[file.contentType];
  const key = `verification/${subject.type}-${subject.id}/${crypto.randomUUID()}.${ext}`;
  const stored = await storage.put(key, file.data, file.contentType);
  const baseName = input.file.name.replace(/[\\/]/g, "_").replace(/\.[a-z0-9]{1,5}$/i, "") || input.kind;
  try {
    const [row] = await db
      .insert(verificationFiles)
      .values({
        subjectType: subject.type,
        subjectId: subject.id,
        uploadedBy: actor.id,
        kind: input.kind,
        fileName: `${baseName}.${ext}`,
        contentType: file.contentType,
        size: stored.size,
        storageKey: key,
        createdAt: now,
      })
      .returning();
    return toPublicFile(row!);
  } catch (err) {
    await storage.delete(key).catch(() => {});
    throw err;
  }
};

/**
 * A new submission from the caller, taking the files it names (the caller's own, not yet part of a submission). An
 * Ethiopian business shows its trade licence; an insurance date needs its certificate and the certificate its date,
 * which must not have passed. One submission waits for review at a time (409 while one does).
 */
export const submitVerification = async (
  db: TDb,
  actor: { id: number },
  input: TVerificationSubmitInput,
  now = Date.now(),
) => {
  const subject = subjectOf(actor);
  const fileIds = [...new Set(input.fileIds)];
  const id = await db.transaction(async (tx) => {
    const files = fileIds.length
      ? await tx.select().from(verificationFiles).where(inArray(verificationFiles.id, fileIds))
      : [];
    for (const fileId of fileIds) {
      const f = files.find((x) => x.id === fileId);
      if (!f || f.subjectType !== subject.type || f.subjectId !== subject.id)
        throw new AppError("NOT_FOUND", FILE_NOT_FOUND);
      if (f.verificationId !== null)
        throw fieldError(
          "fileIds",
          /*i18n*/ {
            id: "error.verification.fileUsed",
            message: "fileIds: file {id} belongs to an earlier submission; upload it again",
            values: { id: fileId },
          },
        );
    }
    if (input.insuranceExpiresOn && input.insuranceExpiresOn <= addisDay(now))
      throw fieldError(
        "insuranceExpiresOn",
        /*i18n*/ {
          id: "error.verification.insuranceExpired",
          message: "insuranceExpiresOn: the insurance has already expired",
        },
      );
    const kinds = new Set(files.map((f) => f.kind));
    if (input.country === "ET" && !kinds.has("trade_licence"))
      throw fieldError(
        "fileIds",
        /*i18n*/ { id: "error.verification.tradeLicenceFile", message: "fileIds: add a copy of the trade licence" },
      );
    if (input.insuranceExpiresOn && !kinds.has("insurance"))
      throw fieldError(
        "fileIds",
        /*i18n*/ {
          id: "error.verification.insuranceFile",
          message: "fileIds: add the insurance certificate for its expiry date",
        },
      );
    if (!input.insuranceExpiresOn && kinds.has("insurance"))
      throw fieldError(
        "insuranceExpiresOn",
        /*i18n*/ {
          id: "error.verification.insuranceDate",
          message: "insuranceExpiresOn: give the insurance certificate's expiry date",
        },
      );
    const [row] = await tx
      .insert(verifications)
      .values({
        subjectType: subject.type,
        subjectId: subject.id,
        submittedBy: actor.id,
        status: "pending",
        country: input.country,
        tradeLicenceNumber: input.tradeLicenceNumber ?? null,
        tin: input.tin ?? null,
        mcNumber: input.mcNumber ?? null,
        dotNumber: input.dotNumber ?? null,
        insuranceExpiresOn: input.insuranceExpiresOn ?? null,
        createdAt: now,
      })
      .onConflictDoNothing()
      .returning({ id: verifications.id });
    if (!row)
      throw new AppError(
        "CONFLICT",
        /*i18n*/ {
          id: "error.verification.pending",
          message: "Your verification is already waiting for review",
        },
      );
    if (fileIds.length) {
      const taken = await tx
        .update(verificationFiles)
        .set({ verificationId: row.id })
        .where(and(inArray(verificationFiles.id, fileIds), isNull(verificationFiles.verificationId)))
        .returning({ id: verificationFiles.id });
      // Another submission took a file between the check and here: nothing of this one is kept.
      if (taken.length !== fileIds.length)
        throw fieldError(
          "fileIds",
          /*i18n*/ {
            id: "error.verification.fileTaken",
            message: "fileIds: a file was taken by another submission; upload it again",
          },
        );
    }
    return row.id;
  });
  const [row] = await db.select().from(verifications).where(eq(verifications.id, id));
  return (await toPublicSubmissions(db, [row!]))[0]!;
};

/** What the newest approved submission of each subject shows today (subjects never approved are absent). */
export const badgesFor = async (
  db: Pick<TDb, "select">,
  subjectIds: number[],
  now = Date.now(),
): Promise<Map<number, TVerifiedBadge>> => {
  const out = new Map<number, TVerifiedBadge>();
  const ids = [...new Set(subjectIds)];
  if (ids.length === 0) return out;
  const rows = await db
    .select()
    .from(verifications)
    .where(
      and(
        eq(verifications.subjectType, "user"),
        inArray(verifications.subjectId, ids),
        eq(verifications.status, "approved"),
      ),
    )
    .orderBy(desc(verifications.id));
  const files = await db
    .select({ verificationId: verificationFiles.verificationId, kind: verificationFiles.kind })
    .from(verificationFiles)
    .where(
      inArray(
        verificationFiles.verificationId,
        rows.map((r) => r.id),
      ),
    );
  const today = addisDay(now);
  for (const r of rows) {
    if (out.has(r.subjectId)) continue;
    const kinds = new Set(files.filter((f) => f.verificationId === r.id).map((f) => f.kind));
    out.set(r.subjectId, {
      verifiedAt: new Date(r.reviewedAt ?? r.createdAt).toISOString(),
      tradeLicence: Boolean(r.tradeLicenceNumber),
      tin: Boolean(r.tin),
      mc: Boolean(r.mcNumber),
      dot: Boolean(r.dotNumber),
      driversLicence: kinds.has("drivers_licence"),
      insuranceUntil: r.insuranceExpiresOn,
      // The insurance holds through its last day.
      insuranceLapsed: r.insuranceExpiresOn !== null && r.insuranceExpiresOn < today,
    });
  }
  return out;
};

/** The caller's newest submission and badge. */
export const myVerification = async (
  db: TDb,
  actor: { id: number },
  now = Date.now(),
): Promise<TMyVerificationAnswer> => {
  const subject = subjectOf(actor);
  const [latest] = await db
    .select()
    .from(verifications)
    .where(and(eq(verifications.subjectType, subject.type), eq(verifications.subjectId, subject.id)))
    .orderBy(desc(verifications.id))
    .limit(1);
  const current = latest ? (await toPublicSubmissions(db, [latest]))[0]! : null;
  return { current, badge: (await badgesFor(db, [subject.id], now)).get(subject.id) ?? null };
};

/** Submissions in one state, oldest first (the review queue), for operators. */
export const listSubmissions = async (db: TDb, status: TVerificationStatus = "pending") =>
  toPublicSubmissions(
    db,
    await db.select().from(verifications).where(eq(verifications.status, status)).orderBy(verifications.id).limit(500),
  );

/**
 * An operator's decision on a pending submission, by a conditional update: two operators deciding at once cannot
 * both win (the second is told it was already reviewed). Answers the submission as decided.
 */
export const reviewSubmission = async (
  db: TDb,
  reviewer: TActor,
  id: number,
  decision: { status: "approved" } | { status: "rejected"; reason: string },
  onDecided: (tx: TDb, decided: Verification) => Promise<unknown> = async () => {},
  now = Date.now(),
) => {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .update(verifications)
      .set({
        status: decision.status,
        reason: decision.status === "rejected" ? decision.reason : null,
        reviewedBy: reviewer?.id ?? null,
        reviewedAt: now,
      })
      .where(and(eq(verifications.id, id), eq(verifications.status, "pending")))
      .returning();
    if (!row) {
      const [exists] = await tx.select({ id: verifications.id }).from(verifications).where(eq(verifications.id, id));
      if (!exists) throw new AppError("NOT_FOUND", SUBMISSION_NOT_FOUND);
      throw new AppError(
        "CONFLICT",
        /*i18n*/ { id: "error.verification.reviewed", message: "This submission was already reviewed" },
      );
    }
    await onDecided(tx as unknown as TDb, row);
  });
  const [row] = await db.select().from(verifications).where(eq(verifications.id, id));
  return (await toPublicSubmissions(db, [row!]))[0]!;
};

/** A verification file's bytes, for its subject's account and operators; 404 for everyone else. */
export const openVerificationFile = async (db: TDb, storage: TStorage, actor: TActor, fileId: number) => {
  const [file] = await db.select().from(verificationFiles).where(eq(verificationFiles.id, fileId));
  const mayRead =
    file &&
    (actor === null ||
      (file.subjectType === "user" && file.subjectId === actor.id) ||
      (await isOperator(db, actor.id)));
  if (!file || !mayRead) throw new AppError("NOT_FOUND", FILE_NOT_FOUND);
  const object = await storage.stream(file.storageKey);
  if (!object) throw new AppError("NOT_FOUND", FILE_NOT_FOUND);
  return { fileName: file.fileName, contentType: file.contentType, size: object.size, stream: object.stream };
};
