"""The htmx pages: views that ask ``selectors`` and ``services`` and render templates.
They never import the API."""
