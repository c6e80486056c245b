"""The REST API v1 (``urls.py`` lists its areas)."""

#: Where the site's URL configuration mounts the API, below the app's root: every answer
#: under it is JSON, errors included (``scorekeeper.security.is_api_request``).
API_ROOT = "api/"
