import { Trans, useLingui } from "@lingui/react/macro";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Copy } from "lucide-react";
import { type FormEvent, useState } from "react";
import { API_SCOPES, type TApiScope } from "../../../shared/api-scopes";
import { toast } from "../../lib/toast";
import { trpc } from "../../lib/trpc";
import { Button } from "../ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../ui/card";
import { ConfirmDeleteDialog } from "../ui/confirm-delete-dialog";
import { TextField } from "../ui/input";

/** Personal API tokens: create one (shown once, with a copy button), see when each was last used, revoke. */
export function ApiTokensPanel() {
  const { t, i18n } = useLingui();
  const queryClient = useQueryClient();
  const tokens = useQuery(trpc.tokens.list.queryOptions());
  const [name, setName] = useState("");
  const [scopes, setScopes] = useState<TApiScope[]>(["loads:read"]);
  const [error, setError] = useState<string | null>(null);
  const [shown, setShown] = useState<{ name: string; token: string } | null>(null);
  const [revoking, setRevoking] = useState<number | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.tokens.list.queryKey() });

  const create = useMutation(
    trpc.tokens.create.mutationOptions({
      onSuccess: (made) => {
        setShown({ name: made.name, token: made.token });
        setName("");
        setError(null);
        void refresh();
      },
      onError: (e) => setError(e.message),
    }),
  );
  const revoke = useMutation(
    trpc.tokens.revoke.mutationOptions({
      onSuccess: () => {
        setRevoking(null);
        void refresh();
        toast({
          title: t({ message: "Token revoked", comment: "Notice title: an API token was revoked" }),
          variant: "success",
        });
      },
      onError: (e) => toast({ title: t`Error`, description: e.message, variant: "destructive" }),
    }),
  );

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!name.trim()) return setError(t`Give the token a name`);
    if (!scopes.length) return setError(t`Choose at least one scope`);
    create.mutate({ name, scopes });
  };
  const copy = async (token: string) => {
    try {
      await navigator.clipboard.writeText(token);
      toast({
        title: t({ message: "Token copied", comment: "Notice title: the new API token was copied to the clipboard" }),
        variant: "success",
      });
    } catch {
      toast({
        title: t({ message: "Copy Failed", comment: "Notice title: copying to the clipboard did not work" }),
        description: t`Please copy the token manually`,
        variant: "destructive",
      });
    }
  };
  const toggle = (scope: TApiScope, on: boolean) =>
    setScopes((s) => (on ? API_SCOPES.filter((x) => x === scope || s.includes(x)) : s.filter((x) => x !== scope)));

  return (
    <Card data-testid="api-tokens">
      <CardHeader>
        <CardTitle>
          <Trans comment="Settings card title: personal tokens for calling the API from the user's own systems">
            API tokens
          </Trans>
        </CardTitle>
        <CardDescription>
          <Trans>
            Your own systems (TMS, ERP) call the API with a token: send it as "Authorization: Bearer" and give it only
            the scopes it needs.
          </Trans>{" "}
          <a className="underline" href="/api/docs">
            <Trans comment="Link to the API's reference documentation page">API reference</Trans>
          </a>
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {shown && (
          <div className="grid gap-2 rounded-md border border-amber-300 bg-amber-50 p-3" data-testid="new-token">
            <p className="text-sm font-medium">
              <Trans>Copy the token for “{shown.name}” now: it is not shown again.</Trans>
            </p>
            <div className="flex items-center gap-2">
              <code className="min-w-0 flex-1 break-all rounded bg-white px-2 py-1 text-xs" data-testid="token-value">
                {shown.token}
              </code>
              <Button
                type="button"
                variant="outline"
                className="min-h-11"
                onClick={() => void copy(shown.token)}
                aria-label={t({
                  message: "Copy token",
                  comment: "Button label: copy the new API token to the clipboard",
                })}
              >
                <Copy aria-hidden />
                <Trans comment="Button: copy the text (promotion text, webhook address) to the clipboard">Copy</Trans>
              </Button>
            </div>
            <Button
              type="button"
              variant="ghost"
              className="min-h-11 justify-self-start"
              onClick={() => setShown(null)}
            >
              <Trans comment="Button: the user has copied the new token and hides it">Done</Trans>
            </Button>
          </div>
        )}
        <form className="grid gap-3" onSubmit={submit} noValidate>
          <TextField
            id="token-name"
            label={<Trans comment="Field label: the name a user gives an API token">Token name</Trans>}
            value={name}
            maxLength={60}
            onChange={(e) => setName(e.target.value)}
            error={error ?? undefined}
          />
          <fieldset className="grid gap-1">
            <legend className="mb-1 text-sm font-medium">
              <Trans comment="Field label: what an API token may do">Scopes</Trans>
            </legend>
            <div className="grid grid-cols-1 gap-x-4 sm:grid-cols-2">
              {API_SCOPES.map((scope) => (
                <label key={scope} className="flex min-h-11 items-center gap-2 text-sm">
                  <input
                    type="checkbox"
                    className="size-4"
                    checked={scopes.includes(scope)}
                    onChange={(e) => toggle(scope, e.target.checked)}
                  />
                  <code>{scope}</code>
                </label>
              ))}
            </div>
          </fieldset>
          <Button type="submit" className="min-h-11 justify-self-start" disabled={create.isPending}>
            <Trans comment="Button: make a new API token">Create token</Trans>
          </Button>
        </form>
        {tokens.isPending ? (
          <p className="text-sm text-muted-foreground">
            <Trans>Getting your tokens…</Trans>
          </p>
        ) : tokens.isError ? (
          <p role="alert" className="text-sm text-destructive">
            <Trans>Your tokens could not be shown. Check your connection and try again.</Trans>
          </p>
        ) : tokens.data.length === 0 ? (
          <p className="text-sm text-muted-foreground" data-testid="no-tokens">
            <Trans>You have no API tokens yet.</Trans>
          </p>
        ) : (
          <ul className="grid gap-2" data-testid="token-list">
            {tokens.data.map((tk) => (
              <li key={tk.id} className="flex flex-wrap items-center gap-2 rounded-md border p-3 text-sm">
                <div className="min-w-0 flex-1">
                  <div className="font-medium">{tk.name}</div>
                  <div className="text-xs text-muted-foreground">
                    <code>{tk.prefix}…</code> · {tk.scopes.join(", ")}
                  </div>
                  <div className="text-xs text-muted-foreground">
                    {tk.lastUsedAt ? (
                      <Trans comment="API token list: when the token was last used, then a date and time">
                        Last used {i18n.date(tk.lastUsedAt, { dateStyle: "medium", timeStyle: "short" })}
                      </Trans>
                    ) : (
                      <Trans comment="API token list: the token has not been used yet">Never used</Trans>
                    )}
                  </div>
                </div>
                <ConfirmDeleteDialog
                  open={revoking === tk.id}
                  onOpenChange={(o) => setRevoking(o ? tk.id : null)}
                  title={<Trans>Revoke the token “{tk.name}”?</Trans>}
                  description={<Trans>Systems using it are refused from now on. This cannot be undone.</Trans>}
                  pending={revoke.isPending}
                  onConfirm={() => revoke.mutate({ id: tk.id })}
                  testIds={{ trigger: "revoke-token", dialog: "revoke-token-dialog", confirm: "confirm-revoke-token" }}
                />
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
