// `toolresult/screen`: the safety screen and the result document, both in the
// screen module (loaded on first use in Node and workerd; browsers `await
// loadScreen()` from the main entry). docs/guide/safety.md.
export { type ScreenRecord, SCREEN_CATEGORIES, applyScreen, redactSecrets, screen, screenError, screenRecordOf } from '../screen.js';
export { type DocumentFiles, checkResultDocument, parseResultDocument, renderResultDocument, resultDocumentName } from '../document.js';
