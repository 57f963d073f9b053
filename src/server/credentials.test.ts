import { describe, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import {
  cleanCredentials,
  openCredentials,
  requireCredentials,
  sealCredentials,
  type TCredentialRules,
} from "./credentials";
import { AppError } from "./errors";
import { createSecretBox } from "./secrets";

const rules: TCredentialRules = {
  fields: ["apiKey", "secret", "region"],
  required: ["apiKey", "secret"],
  path: "config",
  unknown: (field, fields) => ({
    id: "t.unknown",
    message: "{field} is not one of {fields}",
    values: { field, fields },
  }),
  missing: (field) => ({ id: "t.missing", message: "config.{field} is required", values: { field } }),
};

const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    return { code: err.code, message: err.message, issues: err.issues };
  }
  throw new Error("not refused");
};

describe("credentials", () => {
  test("given credentials are trimmed and empty ones dropped; a field the service does not take is refused by name", () => {
    expect(cleanCredentials(rules, { apiKey: "  k1 ", secret: "s", region: "  " })).toEqual({
      apiKey: "k1",
      secret: "s",
    });
    expect(refusal(() => cleanCredentials(rules, { apiKey: "k", password: "p" }))).toEqual({
      code: "BAD_REQUEST",
      message: "password is not one of apiKey, secret, region",
      issues: [{ path: "config.password", message: "password is not one of apiKey, secret, region" }],
    });
  });

  test("the first required field missing is named with its path", () => {
    expect(() => requireCredentials(rules, { apiKey: "k", secret: "s" })).not.toThrow();
    expect(refusal(() => requireCredentials(rules, { apiKey: "k" })).issues).toEqual([
      { path: "config.secret", message: "config.secret is required" },
    ]);
  });

  test("sealed at rest with only the field names in the clear; another key cannot open them and says so", () => {
    const box = createSecretBox(randomBytes(32));
    const stored = sealCredentials(box, { apiKey: "k-123", secret: "very-secret" });
    expect(stored.credentialFields).toEqual(["apiKey", "secret"]);
    expect(stored.credentials).not.toContain("very-secret");
    const unreadable = { id: "t.unreadable", message: "cannot read {name}", values: { name: "My board" } };
    expect(openCredentials(box, stored.credentials, unreadable)).toEqual({ apiKey: "k-123", secret: "very-secret" });
    const other = createSecretBox(randomBytes(32));
    expect(refusal(() => openCredentials(other, stored.credentials, unreadable))).toMatchObject({
      code: "INTERNAL_SERVER_ERROR",
      message: "cannot read My board",
    });
  });
});
