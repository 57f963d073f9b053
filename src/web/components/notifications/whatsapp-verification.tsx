import { Trans, useLingui } from "@lingui/react/macro";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { BadgeCheck, KeyRound } from "lucide-react";
import { useState } from "react";
import { normalizePhone } from "../../../shared/phone";
import { toast } from "../../lib/toast";
import { errorInfo, trpc } from "../../lib/trpc";
import { Badge } from "../ui/badge";
import { Button } from "../ui/button";
import { TextField } from "../ui/input";

/**
 * Under the WhatsApp number: whether it is verified, and the way to verify it (a code sent to the number, typed back
 * here). Nothing but the code goes to a number until it is verified.
 */
export function WhatsAppVerification({
  typed,
  verifiedNumber,
  onVerified,
  onNumberError,
}: {
  /** The number in the field, as typed. */
  typed: string;
  /** The account's verified number (E.164), or null. */
  verifiedNumber: string | null;
  /** The number just verified (E.164). */
  onVerified: (number: string) => void;
  /** A message about the number the server refused. */
  onNumberError: (message: string | undefined) => void;
}) {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [code, setCode] = useState("");
  const [codeError, setCodeError] = useState<string | undefined>();
  const number = normalizePhone(typed);
  const verified = number !== null && number === verifiedNumber;

  const sendCode = useMutation(
    trpc.notifications.whatsappSendCode.mutationOptions({
      onSuccess: (r) => {
        setSentTo(r.phoneNumber);
        setCode("");
        setCodeError(undefined);
        onNumberError(undefined);
        toast({
          title: t({
            comment: "Toast title on the Messaging page: a verification code was sent to the WhatsApp number",
            message: "Code Sent",
          }),
          description: t`We sent a 6-digit code to your WhatsApp. Type it here to confirm the number.`,
          variant: "success",
        });
      },
      onError: (err) => {
        const info = errorInfo(err);
        onNumberError(info.issues.find((i) => i.path === "phoneNumber")?.message);
        toast({ title: t`Code Not Sent`, description: info.message, variant: "destructive" });
      },
    }),
  );
  const verify = useMutation(
    trpc.notifications.whatsappVerify.mutationOptions({
      onSuccess: (view) => {
        queryClient.setQueryData(trpc.notifications.messagingPreferences.queryKey(), view);
        setSentTo(null);
        setCode("");
        setCodeError(undefined);
        if (view.whatsappNumber) onVerified(view.whatsappNumber);
        toast({
          title: t({
            comment: "Toast title on the Messaging page: the WhatsApp number is now proven to be the user's",
            message: "Number Verified",
          }),
          description: t`WhatsApp notifications can now reach ${view.whatsappNumber ?? ""}.`,
          variant: "success",
        });
      },
      onError: (err) => {
        const info = errorInfo(err);
        setCodeError(info.issues.find((i) => i.path === "code")?.message ?? info.message);
      },
    }),
  );

  if (!typed.trim()) return null;
  if (verified)
    return (
      <p className="flex items-center gap-2 text-sm" data-testid="whatsapp-status">
        <Badge variant="success">
          <BadgeCheck className="size-3" aria-hidden />
          {t({
            comment:
              "Badge beside the WhatsApp number on the Messaging page: the number is proven (the code sent to it was typed back)",
            message: "Verified",
          })}
        </Badge>
        <span className="text-muted-foreground">
          <Trans>Notifications go to this number.</Trans>
        </span>
      </p>
    );
  const waiting = sentTo !== null && sentTo === number;
  return (
    <div className="grid gap-3 rounded-md border p-3" data-testid="whatsapp-verification">
      <p className="flex flex-wrap items-center gap-2 text-sm" data-testid="whatsapp-status">
        <Badge variant="warning">
          {t({
            comment: "Badge beside the WhatsApp number on the Messaging page: not proven yet, nothing is sent to it",
            message: "Unverified",
          })}
        </Badge>
        <span className="text-muted-foreground">
          <Trans>Nothing is sent to this number until you confirm it with a code we send to it on WhatsApp.</Trans>
        </span>
      </p>
      <div>
        <Button
          type="button"
          variant="outline"
          size="sm"
          disabled={sendCode.isPending || number === null}
          onClick={() => number && sendCode.mutate({ phoneNumber: number })}
        >
          <KeyRound className="size-4" aria-hidden />
          {sendCode.isPending ? (
            <Trans>Sending...</Trans>
          ) : waiting ? (
            <Trans>Send a new code</Trans>
          ) : (
            <Trans comment="Button on the Messaging page: send a verification code to the WhatsApp number">
              Send code
            </Trans>
          )}
        </Button>
      </div>
      {waiting && (
        <div className="flex flex-wrap items-end gap-2">
          <TextField
            id="whatsapp-code"
            className="w-40"
            label={<Trans>Code from WhatsApp</Trans>}
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={9}
            placeholder="123456"
            value={code}
            error={codeError}
            onChange={(e) => setCode(e.target.value)}
            onKeyDown={(e) => {
              if (e.key !== "Enter") return;
              e.preventDefault();
              if (code.trim()) verify.mutate({ code });
            }}
          />
          <Button
            type="button"
            size="sm"
            disabled={verify.isPending || !code.trim()}
            onClick={() => verify.mutate({ code })}
          >
            {verify.isPending ? (
              <Trans comment="Button label while the typed verification code is being checked">Confirming...</Trans>
            ) : (
              <Trans comment="Button on the Messaging page: check the typed code and confirm the WhatsApp number">
                Confirm number
              </Trans>
            )}
          </Button>
        </div>
      )}
    </div>
  );
}
