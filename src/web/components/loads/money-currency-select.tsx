import type * as React from "react";
import { MONEY_CURRENCY_CODES } from "../../../shared/constants";
import { NativeSelect } from "../ui/textarea";

/** A select of the currencies a load's budget or a bid can be in (MONEY_CURRENCY_CODES); props go to the select. */
export function MoneyCurrencySelect(props: Omit<React.ComponentProps<typeof NativeSelect>, "children">) {
  return (
    <NativeSelect {...props}>
      {MONEY_CURRENCY_CODES.map((c) => (
        <option key={c} value={c}>
          {c}
        </option>
      ))}
    </NativeSelect>
  );
}
