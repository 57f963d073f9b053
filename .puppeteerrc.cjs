// whatsapp-web.js drives Debian's Chromium (/usr/bin/chromium, CHROMIUM_PATH): Puppeteer must never download a browser.
module.exports = { skipDownload: true };
