// Options for the custom-elements manifest analyzer (run by scripts/build-widget.ts). The
// manifest's place is declared once in package.json ("customElements"), so the analyzer must
// not rewrite package.json with whatever output folder a build used.
export default {
  globs: ['widget/rag-feedback/rag-feedback.component.ts'],
  litelement: true,
  packagejson: false,
};
