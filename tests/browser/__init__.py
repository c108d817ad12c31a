"""Real-browser tests: Playwright drives Chromium over the built site."""
