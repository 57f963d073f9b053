// Vite's `?url` imports: the built file's public address.
declare module "*?url" {
  const url: string;
  export default url;
}
