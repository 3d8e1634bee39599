// ESLint (flat config): the JavaScript of the widgets, the site and the build, with ESLint's
// recommended rules. `make lint-js` runs it; `make check` includes it.
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: ["node_modules/**", "_build/**", "book/_vendor/**", ".venv/**"] },
  js.configs.recommended,
  {
    // The widgets' ES modules and the site's scripts run in the reader's browser.
    files: ["rope_core/widgets/**/*.js", "book/_site/**/*.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: globals.browser },
  },
  {
    // The build steps (MathJax typesetting, PurgeCSS) and the JS unit tests run in Node.
    files: ["book/_ext/**/*.{js,mjs}", "tests/js/**/*.mjs", "eslint.config.mjs"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: globals.node },
  },
];
