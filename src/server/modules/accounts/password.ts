// argon2id through Bun.password. A fixed dummy hash is verified when the account is unknown, so a missing account
// costs the same time as a wrong password.
const DUMMY_HASH = await Bun.password.hash("not-a-real-password", { algorithm: "argon2id" });

export const hashPassword = (password: string) => Bun.password.hash(password, { algorithm: "argon2id" });

export const verifyPassword = async (password: string, hash: string | null | undefined) => {
  const ok = await Bun.password.verify(password, hash ?? DUMMY_HASH);
  return Boolean(hash) && ok;
};
