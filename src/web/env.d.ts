// Files the bundler imports that TypeScript does not read.
declare module "*.css";
