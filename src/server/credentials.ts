import { AppError, type TMessage } from "./errors";
import type { TSecretBox } from "./secrets";

// A user's credentials for an outside service (a load board, a store): the same rules for board configurations
// (modules/boards/configs.ts) and store integrations (modules/stores/integrations.ts). Values are sealed with
// the server's key before they are stored, and only the names of the fields that are set ever leave the server.
// Each caller gives its own messages (its field path and the service's name), so each keeps its own translations.

/** The fields a service takes, where they sit in the request (`config`, `credentials`), and the messages to refuse with. */
export type TCredentialRules = {
  fields: readonly string[];
  required: readonly string[];
  /** Where the fields are in the request body, for the issues' paths: "config" gives "config.apiKey". */
  path: string;
  unknown: (field: string, fields: string) => TMessage;
  missing: (field: string) => TMessage;
};

const refuse = (path: string, message: TMessage) =>
  new AppError("BAD_REQUEST", message, { issues: [{ path, message }] });

/** Credentials as given: a field the service does not take is refused by name; values trimmed, empty ones dropped. */
export const cleanCredentials = (rules: TCredentialRules, given: Record<string, string>) => {
  const unknown = Object.keys(given).find((k) => !rules.fields.includes(k));
  if (unknown) throw refuse(`${rules.path}.${unknown}`, rules.unknown(unknown, rules.fields.join(", ")));
  return Object.fromEntries(
    Object.entries(given)
      .map(([k, v]) => [k, v.trim()])
      .filter(([, v]) => v !== ""),
  ) as Record<string, string>;
};

/** Refuses credentials without one of the service's required fields, naming the first one missing. */
export const requireCredentials = (rules: TCredentialRules, creds: Record<string, string>) => {
  const missing = rules.required.find((f) => !creds[f]);
  if (missing) throw refuse(`${rules.path}.${missing}`, rules.missing(missing));
};

/** What is stored: the sealed credentials and the names of the fields that are set. */
export const sealCredentials = (secrets: TSecretBox, creds: Record<string, string>) => ({
  credentials: secrets.seal(JSON.stringify(creds)),
  credentialFields: Object.keys(creds),
});

/** Stored credentials opened, or a 500 saying so (`unreadable`) when this server's key cannot open them. */
export const openCredentials = (secrets: TSecretBox, sealed: string, unreadable: TMessage): Record<string, string> => {
  try {
    return JSON.parse(secrets.open(sealed)) as Record<string, string>;
  } catch {
    throw new AppError("INTERNAL_SERVER_ERROR", unreadable);
  }
};

/** A refusal naming the field it is about (`issues[].path`), for addresses as for credentials. */
export const refuseField = (path: string, message: TMessage) => refuse(path, message);

/**
 * An adapter method for a stored address the rules now refuse: every call fails with the field's refusal and nothing
 * is sent. (Addresses are checked when saved; rows saved under older rules meet the same check before each call.)
 */
export const refusedAdapterCall =
  (path: string, message: TMessage) =>
  (..._args: unknown[]): Promise<never> =>
    Promise.reject(refuse(path, message));
