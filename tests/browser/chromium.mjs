// How the browser tests start Debian's Chromium: headless, no sandbox
// (containers), nothing fetched from the network by the browser itself.
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
];
export const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
