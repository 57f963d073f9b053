// What an API token may do: each REST route names the one scope it needs. The web app's token form lists these, and
// the OpenAPI document describes them.
export const API_SCOPES = [
  "account:read",
  "account:write",
  "billing:read",
  "billing:write",
  "loads:read",
  "loads:write",
  "bids:read",
  "bids:write",
  "trucks:read",
  "trucks:write",
  "messages:read",
  "messages:write",
  "tracking:read",
  "tracking:write",
  "shipping:read",
  "shipping:write",
  "boards:read",
  "boards:write",
  "stores:read",
  "stores:write",
  "notifications:read",
  "notifications:write",
  "webhooks:read",
  "webhooks:write",
] as const;
export type TApiScope = (typeof API_SCOPES)[number];
