// Files imported `with { type: "file" }` resolve to a path string (embedded in the binary).
declare module "*/standalone.js" {
  const path: string;
  export default path;
}
