"""How each language writes dates on the pages (``FORMAT_MODULE_PATH``): short, with
the month's abbreviated name, in the order its readers expect. Django's own formats
fill in the rest (numbers, inputs)."""
