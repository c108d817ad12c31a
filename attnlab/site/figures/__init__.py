"""What the code blocks print (tables, weight maps, figures, widgets): pure functions, no file read or written."""
