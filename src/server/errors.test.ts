import { expect, test } from "bun:test";
import { TRPCError } from "@trpc/server";
import { AppError, describeError } from "./errors";

const accepted = /*i18n*/ { id: "error.bidStatus.accepted", message: "accepted" };
const refusal = () =>
  new AppError(
    "CONFLICT",
    /*i18n*/ {
      id: "error.bid.notPendingToAccept",
      message: "This bid is {status}; only a pending bid can be accepted",
      values: { status: accepted },
    },
  );

test("an AppError's message is the English text with its values, and its id travels with it", () => {
  const err = refusal();
  expect(err.message).toBe("This bid is accepted; only a pending bid can be accepted");
  expect(err.messageId).toBe("error.bid.notPendingToAccept");
  expect(err.messageIn("am")).toBe("የዚህ ጨረታ ሁኔታ «ተቀባይነት አግኝቷል» ነው፤ ተቀባይነት ሊያገኝ የሚችለው በመጠባበቅ ላይ ያለ ጨረታ ብቻ ነው");
  expect(err.messageIn("om")).toBe(
    "Haalli caalbaasii kanaa “fudhatameera” dha; kan fudhatamuu danda'u caalbaasii eegaa jiru qofa",
  );
});

test("a message no catalog knows yet reads as its English default in every language", () => {
  const err = new AppError("BAD_REQUEST", {
    id: "error.test.unknown",
    message: "Nothing for {who}",
    values: { who: "you" },
  });
  expect(err.messageIn("am")).toBe("Nothing for you");
  expect(err.message).toBe("Nothing for you");
});

test("describeError: the caller's language, English without one; a server failure says only that", () => {
  const wrapped = new TRPCError({ code: "CONFLICT", cause: refusal() });
  expect(describeError(wrapped).body).toEqual({
    message: "This bid is accepted; only a pending bid can be accepted",
    code: "CONFLICT",
    messageId: "error.bid.notPendingToAccept",
  });
  expect(describeError(wrapped, "om").status).toBe(409);
  const crash = describeError(new Error("disk full at /var/db"), "am");
  expect(crash).toEqual({
    status: 500,
    body: { message: "የአገልጋይ ውስጣዊ ስህተት", code: "INTERNAL_SERVER_ERROR", messageId: "error.internal" },
  });
});
