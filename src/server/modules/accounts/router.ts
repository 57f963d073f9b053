import type { TRPCRouterRecord } from "@trpc/server";
import { accountDefaults } from "../../../shared/region";
import { ZAuthMeAnswer } from "../../../shared/schemas/answers/accounts";
import {
  ZAccepted,
  ZAddEmailInput,
  ZAddPhoneInput,
  ZConfirmEmailInput,
  ZConfirmPhoneInput,
  ZForgotPasswordInput,
  ZLoginInput,
  ZPhoneStartInput,
  ZPhoneVerifyInput,
  ZRegisterInput,
  ZResetPasswordInput,
  ZUpdateCalendarInput,
  ZUpdateCurrencyInput,
  ZUpdateLanguageInput,
  ZUpdateProfileInput,
  ZUpdateUnitsInput,
  ZUserAnswer,
} from "../../../shared/schemas/auth";
import { AppError } from "../../errors";
import type { TContext } from "../../trpc/context";
import { authedProcedure, publicProcedure } from "../../trpc/init";
import { rest } from "../../trpc/rest-meta";
import { subscriptionOf } from "../billing/premium";
import { authenticate, registerUser } from "./auth";
import { confirmEmail, requestEmailLink } from "./email-verification";
import { requestPasswordReset, resetPasswordWithToken } from "./password-reset";
import { confirmPhone, requestPhoneCode, resetPasswordWithCode } from "./phone-codes";
import { startPhoneSignIn, verifyPhoneSignIn } from "./phone-sign-in";
import { toPublicUser } from "./public-user";
import { clearedSessionCookie, createSession, deleteSession, sessionCookie } from "./sessions";
import { updateUser } from "./users";

/** The HTTP parts of the context: signing in and out sets a cookie, so it happens over HTTP only. */
const httpOf = (ctx: TContext) => {
  if (!ctx.http)
    throw new AppError(
      "BAD_REQUEST",
      /*i18n*/ {
        id: "error.auth.httpOnly",
        message: "Signing in and out happens in the app or on the website",
      },
    );
  return ctx.http;
};

const startSession = async (ctx: TContext, userId: number) => {
  const http = httpOf(ctx);
  const { token } = await createSession(ctx.db, userId, null);
  http.resHeaders.append("Set-Cookie", sessionCookie(token, http.secure));
};

/** Signing up, in and out (over HTTP only: they set the session cookie), and who is signed in. */
export const authRouter = {
  /** The signed-in user, or null. */
  me: publicProcedure
    .meta(
      rest("GET", "/api/auth/user", {
        summary: "The signed-in user",
        tags: ["Account"],
        scope: "account:read",
        answer: { kind: "wrap", name: "user", nullIsUnauthorized: true },
      }),
    )
    .output(ZAuthMeAnswer)
    .query(({ ctx }) => (ctx.actor ? toPublicUser(ctx.actor) : null)),

  register: publicProcedure
    .meta(
      rest("POST", "/api/auth/register", {
        summary: "Create an account and sign in",
        tags: ["Account"],
        scope: "public",
        status: 201,
        anonymousBody: true,
      }),
    )
    .input(ZRegisterInput)
    .output(ZUserAnswer)
    .mutation(async ({ ctx, input }) => {
      const http = httpOf(ctx); // before the account is made: nothing half-done outside HTTP
      const user = await registerUser(
        ctx.db,
        input,
        accountDefaults({ language: ctx.locale, region: http.region ?? null }),
      );
      await startSession(ctx, user.id);
      ctx.services.log.info("user registered", { userId: user.id, userType: user.userType });
      return { user: toPublicUser(user) };
    }),

  login: publicProcedure
    .meta(
      rest("POST", "/api/auth/login", { summary: "Sign in", tags: ["Account"], scope: "public", anonymousBody: true }),
    )
    .input(ZLoginInput)
    .output(ZUserAnswer)
    .mutation(async ({ ctx, input }) => {
      const user = await authenticate(ctx.db, input, httpOf(ctx).ip);
      await startSession(ctx, user.id);
      return { user: toPublicUser(user) };
    }),

  /**
   * Asks for a reset link by mail ({email}) or a 6-digit code by SMS ({phone}). Answered the same whether or not an
   * account uses the address or number (REST: 202); the job it enqueues sends the link or code, if there is an account.
   */
  forgotPassword: publicProcedure
    .meta(
      rest("POST", "/api/auth/password/forgot", {
        summary: "Ask for a password reset link by mail or a code by SMS",
        tags: ["Account"],
        scope: "public",
        status: 202,
        anonymousBody: true,
      }),
    )
    .input(ZForgotPasswordInput)
    .output(ZAccepted)
    .mutation(async ({ ctx, input }) => {
      await requestPasswordReset(ctx.db, input, httpOf(ctx).ip);
      return { ok: true as const };
    }),

  /**
   * Sets a new password with a reset link's token, or with an SMS code and its number: every session of the account
   * ends, this browser is signed in.
   */
  resetPassword: publicProcedure
    .meta(
      rest("POST", "/api/auth/password/reset", {
        summary: "Set a new password with a reset link's token or an SMS code, and sign in",
        tags: ["Account"],
        scope: "public",
        anonymousBody: true,
      }),
    )
    .input(ZResetPasswordInput)
    .output(ZUserAnswer)
    .mutation(async ({ ctx, input }) => {
      httpOf(ctx);
      const user =
        input.token !== undefined
          ? await resetPasswordWithToken(ctx.db, { token: input.token, password: input.password })
          : await resetPasswordWithCode(ctx.db, ctx.services.secrets, {
              phone: input.phone!,
              code: input.code!,
              password: input.password,
            });
      await startSession(ctx, user.id);
      ctx.services.log.info("password reset", { userId: user.id });
      return { user: toPublicUser(user) };
    }),

  /**
   * Asks for a sign-in code by SMS. Answered the same whether or not an account has the number (REST: 202): with one,
   * the code signs in; without one, it makes the account (see phoneVerify).
   */
  phoneStart: publicProcedure
    .meta(
      rest("POST", "/api/auth/phone/start", {
        summary: "Send a sign-in code to a phone number",
        tags: ["Account"],
        scope: "public",
        status: 202,
        anonymousBody: true,
      }),
    )
    .input(ZPhoneStartInput)
    .output(ZAccepted)
    .mutation(async ({ ctx, input }) => {
      await startPhoneSignIn(ctx.db, input.phone, httpOf(ctx).ip, ctx.locale);
      return { ok: true as const };
    }),

  /**
   * Signs in with the code sent to the number; a number without an account gets one when firstName, lastName and
   * userType come with the code (else a 400 naming the missing field, and the code stays usable).
   */
  phoneVerify: publicProcedure
    .meta(
      rest("POST", "/api/auth/phone/verify", {
        summary: "Sign in (or sign up) with the code sent to a phone number",
        tags: ["Account"],
        scope: "public",
        anonymousBody: true,
      }),
    )
    .input(ZPhoneVerifyInput)
    .output(ZUserAnswer)
    .mutation(async ({ ctx, input }) => {
      const http = httpOf(ctx);
      const { user, created } = await verifyPhoneSignIn(
        ctx.db,
        ctx.services.secrets,
        input,
        http.ip,
        accountDefaults({ language: ctx.locale, region: http.region ?? null }),
      );
      await startSession(ctx, user.id);
      if (created) ctx.services.log.info("user registered", { userId: user.id, userType: user.userType, by: "phone" });
      return { user: toPublicUser(user) };
    }),

  /** Proves an email address with the link mailed to it (the link is the proof: no session needed). */
  confirmEmail: publicProcedure
    .meta(
      rest("POST", "/api/auth/email/verify", {
        summary: "Confirm an email address with the link mailed to it",
        tags: ["Account"],
        scope: "public",
        anonymousBody: true,
      }),
    )
    .input(ZConfirmEmailInput)
    .output(ZAccepted)
    .mutation(async ({ ctx, input }) => {
      await confirmEmail(ctx.db, input.token);
      return { ok: true as const };
    }),

  logout: authedProcedure.mutation(async ({ ctx }) => {
    const http = httpOf(ctx);
    if (http.sessionHash) await deleteSession(ctx.db, http.sessionHash);
    http.resHeaders.append("Set-Cookie", clearedSessionCookie(http.secure));
    return { ok: true };
  }),
} satisfies TRPCRouterRecord;

/** The signed-in user's own settings: language, currency, calendar, profile. */
export const userRouter = {
  updateLanguage: authedProcedure
    .meta(
      rest("PUT", "/api/user/language", {
        summary: "Set the account's language",
        tags: ["Account"],
        scope: "account:write",
      }),
    )
    .input(ZUpdateLanguageInput)
    .output(ZUserAnswer)
    .mutation(async ({ ctx, input }) => ({
      user: toPublicUser(await updateUser(ctx.db, ctx.actor.id, { language: input.language })),
    })),

  updateCurrency: authedProcedure
    .meta(
      rest("PUT", "/api/user/currency", {
        summary: "Set the account's currency",
        tags: ["Account"],
        scope: "account:write",
      }),
    )
    .input(ZUpdateCurrencyInput)
    .output(ZUserAnswer)
    .mutation(async ({ ctx, input }) => ({
      user: toPublicUser(await updateUser(ctx.db, ctx.actor.id, { currency: input.currency })),
    })),

  updateCalendar: authedProcedure
    .meta(
      rest("PUT", "/api/user/calendar", {
        summary: "Set the account's calendar",
        tags: ["Account"],
        scope: "account:write",
      }),
    )
    .input(ZUpdateCalendarInput)
    .output(ZUserAnswer)
    .mutation(async ({ ctx, input }) => ({
      user: toPublicUser(
        await updateUser(ctx.db, ctx.actor.id, {
          calendar: input.calendar,
          ...(input.ethiopianTime === undefined ? {} : { ethiopianTime: input.ethiopianTime }),
        }),
      ),
    })),

  /** Kilometres and kilograms or miles and pounds, for what this account reads everywhere (web, bots, notifications). */
  updateUnits: authedProcedure
    .meta(
      rest("PUT", "/api/user/units", {
        summary: "Set the account's units (metric or imperial)",
        tags: ["Account"],
        scope: "account:write",
      }),
    )
    .input(ZUpdateUnitsInput)
    .output(ZUserAnswer)
    .mutation(async ({ ctx, input }) => ({
      user: toPublicUser(await updateUser(ctx.db, ctx.actor.id, { units: input.units })),
    })),

  updateProfile: authedProcedure
    .meta(
      rest("PUT", "/api/user/profile", { summary: "Update the profile", tags: ["Account"], scope: "account:write" }),
    )
    .input(ZUpdateProfileInput)
    .output(ZUserAnswer)
    .mutation(async ({ ctx, input }) => ({
      user: toPublicUser(await updateUser(ctx.db, ctx.actor.id, input)),
    })),

  /** Sends a code by SMS to a number the signed-in account wants to add (REST: 202); the number is not saved yet. */
  addPhone: authedProcedure
    .meta(
      rest("POST", "/api/user/phone", {
        summary: "Send a code to a phone number to add it to the account",
        tags: ["Account"],
        scope: "account:write",
        status: 202,
      }),
    )
    .input(ZAddPhoneInput)
    .output(ZAccepted)
    .mutation(async ({ ctx, input }) => {
      await requestPhoneCode(ctx.db, ctx.actor.id, input.phone);
      return { ok: true as const };
    }),

  /** The number becomes the account's once the code sent to it is typed back. */
  confirmPhone: authedProcedure
    .meta(
      rest("POST", "/api/user/phone/verify", {
        summary: "Confirm a phone number with the code sent to it",
        tags: ["Account"],
        scope: "account:write",
      }),
    )
    .input(ZConfirmPhoneInput)
    .output(ZUserAnswer)
    .mutation(async ({ ctx, input }) => ({
      user: toPublicUser(await confirmPhone(ctx.db, ctx.services.secrets, ctx.actor.id, input)),
    })),

  /** Mails a link to an email address the signed-in account wants (REST: 202); it becomes the account's once used. */
  addEmail: authedProcedure
    .meta(
      rest("POST", "/api/user/email", {
        summary: "Mail a link to an email address to add it to the account",
        tags: ["Account"],
        scope: "account:write",
        status: 202,
      }),
    )
    .input(ZAddEmailInput)
    .output(ZAccepted)
    .mutation(async ({ ctx, input }) => {
      await requestEmailLink(ctx.db, ctx.actor.id, input.email);
      return { ok: true as const };
    }),

  subscriptionStatus: authedProcedure.query(({ ctx }) => subscriptionOf(ctx.actor)),
} satisfies TRPCRouterRecord;
