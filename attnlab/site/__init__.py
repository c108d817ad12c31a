"""What builds the guide: the plugin (``build.plugin``), the page and post-build passes; attnlab never imports it."""
