import { AppError } from "../../errors";
import { bodyObject, route, type TRestRoute } from "./route";

/** The REST paths of SPEC section 7, each a thin adapter over one procedure. */
export const REST_ROUTES: TRestRoute[] = [
  route("POST", "/api/auth/register", (c, r) => c.auth.register(bodyObject(r) as never), 201),
  route("POST", "/api/auth/login", (c, r) => c.auth.login(bodyObject(r) as never)),
  route("GET", "/api/auth/user", async (c) => {
    const user = await c.auth.me();
    if (!user) throw new AppError("UNAUTHORIZED", "Unauthorized");
    return { user };
  }),
  route("GET", "/api/subscription/status", (c) => c.user.subscriptionStatus()),
  route("PUT", "/api/user/language", (c, r) => c.user.updateLanguage(bodyObject(r) as never)),
  route("PUT", "/api/user/currency", (c, r) => c.user.updateCurrency(bodyObject(r) as never)),
  route("PUT", "/api/user/profile", (c, r) => c.user.updateProfile(bodyObject(r) as never)),
  route("GET", "/api/platform-stats", (c) => c.platform.stats()),
  route("GET", "/api/fx-rates", (c) => c.platform.fxRates()),
];
