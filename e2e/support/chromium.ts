// How every browser here is launched: Debian's Chromium (Playwright's own browser download
// cannot run on machines without GitHub), with the flags that keep it off the closed network.
export const chromiumLaunchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run'
  ]
}
