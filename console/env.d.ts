/** Stylesheets imported as text (esbuild's `text` loader), adopted into shadow roots with unsafeCSS. */
declare module '*.css' {
  const text: string;
  export default text;
}
