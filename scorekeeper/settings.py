"""Settings, all from the environment (twelve-factor): the app keeps no state of its own
outside the database, so many processes can share one PostgreSQL behind a load balancer.

Environment:
  DATABASE_URL   default sqlite:///<project>/db.sqlite3; postgres://… in production
  SECRET_KEY     required when DEBUG is off
  DEBUG          "1"/"true" to turn on (default off)
  ALLOWED_HOSTS  comma-separated (default localhost,127.0.0.1,[::1] with DEBUG, else empty)
  CSRF_TRUSTED_ORIGINS comma-separated origins, for a proxy in front
  BEHIND_TLS_PROXY     "1" when a TLS-terminating proxy sets X-Forwarded-Proto: turns on
                       HSTS and the https redirect (each settable, see README)
  TRUSTED_PROXY_COUNT  how many proxies in front append to X-Forwarded-For (default 0:
                       the client is REMOTE_ADDR and X-Forwarded-For is ignored)
  STATIC_ROOT          where collectstatic puts the files (default <project>/staticfiles)
  SCRIPT_NAME          the path the app is served under behind a proxy ("/scores"; default:
                       the site's root); gunicorn reads the same variable
  SIGNUP               who may create an account: open (default), invite or closed
  SIGNUP_INVITES_BY    who makes sign-up invitations: admins (default) or users
  EMAIL_*, DEFAULT_FROM_EMAIL  Django's own e-mail settings (password resets)
  HEALTH_TASK_MAX_AGE  seconds a queued task may wait before /healthz answers 503
  HEALTH_WORKER_MAX_AGE  seconds since the worker's last heartbeat before /healthz
                       answers 503
The README's "Configuration" table lists every variable.
"""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlsplit

import dj_database_url
from csp.constants import NONE, SELF
from whitenoise.compress import Compressor

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_int(name: str, default: int) -> int:
    value = os.environ.get(name, "").strip()
    if not value:
        return default
    try:
        return int(value)
    except ValueError:
        raise RuntimeError(f"{name} must be a whole number, not {value!r}.") from None


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_bool("DEBUG")
#: pytest (8.2+) sets PYTEST_VERSION for the run.
TESTING = "PYTEST_VERSION" in os.environ
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not (DEBUG or TESTING or env_bool("SCOREKEEPER_INSECURE_DEV_KEY")):
        raise RuntimeError("Set SECRET_KEY (or DEBUG=1 for local development).")
    SECRET_KEY = "dev-only-insecure-key-do-not-use-in-production"

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]" if (DEBUG or TESTING) else "")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")
#: A refused form gets the app's page (what happened, what to do), not Django's technical one.
CSRF_FAILURE_VIEW = "scorekeeper.web.errors.csrf_failure"

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "scorekeeper.apps.StaticFilesConfig",  # django.contrib.staticfiles, minus unused files
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_htmx",
    "template_partials",
    "csp",
    "axes",
    "statici18n",
    "django_tasks",
    "django_tasks_db",
    "scorekeeper",
]

MIDDLEWARE = [
    # First: /healthz answers monitors from any address and host name, over plain http,
    # without sessions, redirects or rate limits.
    "scorekeeper.web.health.HealthMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Below WhiteNoise (which serves its own pre-compressed static files), above everything
    # that writes the body. Django's gzip adds random bytes against BREACH, and CSRF tokens
    # in pages are masked afresh in every response.
    "django.middleware.gzip.GZipMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The page's language: the device's choice (the language cookie set by the switch in
    # every page's footer, or at sign-in from the account's), else the browser's
    # Accept-Language, else English. It adds Content-Language and Vary: Accept-Language.
    "django.middleware.locale.LocaleMiddleware",
    # Signing in brings the account's language along (web/language.py).
    "scorekeeper.web.language.AccountLanguageMiddleware",
    "django.middleware.common.CommonMiddleware",
    "scorekeeper.web.csrf.CsrfCookieOnlyWhenChanged",  # sees Django's CSRF answer after it
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Last, as django-axes asks: turns a locked-out sign-in into a 429.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "scorekeeper.urls"
# Served under a path prefix (a proxy passing https://example.org/scores/… on unchanged to
# gunicorn, which strips SCRIPT_NAME from each path). Django learns the prefix from each
# request, but some URLs are made before any request arrives: STATIC_URL (read once,
# when WhiteNoise starts, so it is spelt out below) and reverse() in management commands.
SCRIPT_NAME = os.environ.get("SCRIPT_NAME", "").strip().rstrip("/")
FORCE_SCRIPT_NAME = SCRIPT_NAME or None
WSGI_APPLICATION = "scorekeeper.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "scorekeeper.web.theme.theme_context",
                "scorekeeper.web.accounts.signup_context",
            ],
            "builtins": ["template_partials.templatetags.partials"],
        },
    },
]

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=60,
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Many phones post at once at a table: wait for the write lock instead of failing.
    DATABASES["default"].setdefault("OPTIONS", {})["timeout"] = 20
    DATABASES["default"]["OPTIONS"]["transaction_mode"] = "IMMEDIATE"

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Background tasks (re-rating a league after a correction to an old game) are rows in
# the database, run by `python manage.py worker` beside the web server. The tests
# run them at once, in the request.
TASKS = {
    "default": {
        "BACKEND": "django_tasks.backends.immediate.ImmediateBackend"
        if TESTING
        else "django_tasks_db.DatabaseBackend",
    }
}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# -- Accounts --------------------------------------------------------------------------
#: Who may create an account: "open" (anyone), "invite" (with a sign-up invitation)
#: or "closed" (only the admin makes accounts).
SIGNUP = os.environ.get("SIGNUP", "open").strip().lower() or "open"
if SIGNUP not in {"open", "invite", "closed"}:
    raise RuntimeError(f"SIGNUP must be open, invite or closed, not {SIGNUP!r}.")
#: Who makes sign-up invitations: "admins" (in the admin) or "users" (any signed-in user,
#: on their account page, as well).
SIGNUP_INVITES_BY = os.environ.get("SIGNUP_INVITES_BY", "admins").strip().lower() or "admins"
if SIGNUP_INVITES_BY not in {"admins", "users"}:
    raise RuntimeError(f"SIGNUP_INVITES_BY must be admins or users, not {SIGNUP_INVITES_BY!r}.")

# E-mail (password resets), under Django's own names: printed on the console under DEBUG,
# sent by SMTP otherwise; "django.core.mail.backends.filebased.EmailBackend" writes each
# message to a file in EMAIL_FILE_PATH instead.
EMAIL_BACKEND = os.environ.get(
    "EMAIL_BACKEND",
    "django.core.mail.backends.console.EmailBackend"
    if DEBUG
    else "django.core.mail.backends.smtp.EmailBackend",
)
EMAIL_FILE_PATH = os.environ.get("EMAIL_FILE_PATH", "") or str(BASE_DIR / "sent-mail")
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
EMAIL_PORT = env_int("EMAIL_PORT", 25)
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS")
EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL")
EMAIL_TIMEOUT = env_int("EMAIL_TIMEOUT", 20)
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "webmaster@localhost")
SERVER_EMAIL = DEFAULT_FROM_EMAIL

#: /healthz answers 503 when a queued background task has waited longer than this.
HEALTH_TASK_MAX_AGE = max(env_int("HEALTH_TASK_MAX_AGE", 15 * 60), 1)
#: ``manage.py worker`` reports it is alive this often; /healthz answers 503 once the
#: newest report is older than HEALTH_WORKER_MAX_AGE.
WORKER_HEARTBEAT_SECONDS = 30
HEALTH_WORKER_MAX_AGE = max(env_int("HEALTH_WORKER_MAX_AGE", 3 * 60), 1)

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en"
# The languages a table can play in: the pages, the rules, the engine's messages, the
# scripts' words (a static catalog per language, django-statici18n: `make messages`).
LANGUAGES = [("en", "English"), ("de", "Deutsch"), ("es", "Español")]
LOCALE_PATHS = [BASE_DIR / "locale"]
# A year, like the theme's: a phone keeps the table's language between evenings.
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
LANGUAGE_COOKIE_SAMESITE = "Lax"
STATICI18N_ROOT = BASE_DIR / "static"
STATICI18N_OUTPUT_DIR = "jsi18n"
# Only this project's words (LOCALE_PATHS), not the admin's scripts' catalog.
STATICI18N_PACKAGES = ("scorekeeper",)
TIME_ZONE = os.environ.get("TIME_ZONE", "UTC")
USE_I18N = True
#: How each language writes a date (Django's own formats for the rest).
FORMAT_MODULE_PATH = ["scorekeeper.formats"]
USE_TZ = True

STATIC_URL = f"{SCRIPT_NAME}/static/"
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", "") or BASE_DIR / "staticfiles")
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "scorekeeper.staticfiles.CompressedManifestModulesStorage"
            if env_bool("STATIC_MANIFEST", not (DEBUG or TESTING))
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}

WHITENOISE_USE_FINDERS = DEBUG or TESTING
# collectstatic writes .gz and (with the Brotli package) .br beside each file, and
# WhiteNoise serves whichever the browser accepts. Source maps are only fetched by
# developer tools: not worth compressing at every deploy.
WHITENOISE_SKIP_COMPRESS_EXTENSIONS = [*Compressor.SKIP_COMPRESS_EXTENSIONS, "map"]

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    # JSON with limits (size, depth, NUL, 64-bit numbers): see scorekeeper/api/parsers.py.
    "DEFAULT_PARSER_CLASSES": [
        "scorekeeper.api.parsers.JSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 25,
    "EXCEPTION_HANDLER": "scorekeeper.api.errors.exception_handler",
    # JSON out as ASCII (\u escapes): a message that quotes a refused value holding a
    # lone surrogate still renders, instead of failing the response with a 500.
    "UNICODE_JSON": False,
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
}

SPECTACULAR_SETTINGS = {
    "TITLE": "scorekeeper API",
    "DESCRIPTION": "Score sheets, rules and league history for five house-rule card games.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    # The schema's paths start at the app's root: under a prefix, the docs page's
    # "Try it out" must put the prefix in front.
    "SERVERS": [{"url": SCRIPT_NAME}] if SCRIPT_NAME else [],
    # Two choice sets answer as "status": a game's and a league import's.
    "ENUM_NAME_OVERRIDES": {
        "StatusEnum": "scorekeeper.models.GameStatus.values",
        "LeagueImportStatusEnum": "scorekeeper.models.LeagueImportStatus",
        "MemberRoleEnum": "scorekeeper.models.MemberRole.values",
        "InviteRoleEnum": "scorekeeper.models.InviteRole.values",
    },
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "scorekeeper.api.schema.document_common_errors",
    ],
}

# Live updates: where a sheet's phones open their event stream (the events server,
# `python -m scorekeeper.live`). Empty: no events server, the phones poll.
# `/events/` behind a proxy that routes that path to it (production; `/scores/events/`
# under a prefix: the events server answers at this URL's path); a full URL when it
# listens on another origin (`make run`: http://127.0.0.1:8001/events/).
# (What one client address may hold open there is nginx's to count: deploy/nginx/.)
LIVE_EVENTS_URL = os.environ.get("LIVE_EVENTS_URL", "").strip()
if LIVE_EVENTS_URL and not LIVE_EVENTS_URL.endswith("/"):
    LIVE_EVENTS_URL += "/"
_live = urlsplit(LIVE_EVENTS_URL)
LIVE_EVENTS_ORIGIN = f"{_live.scheme}://{_live.netloc}" if _live.scheme and _live.netloc else ""

# Content Security Policy: everything from this origin, nothing inline, no CDN.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "connect-src": [SELF, *([LIVE_EVENTS_ORIGIN] if LIVE_EVENTS_ORIGIN else [])],
        "font-src": [SELF],
        "manifest-src": [SELF],
        "worker-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}

SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", not (DEBUG or TESTING))
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
LANGUAGE_COOKIE_SECURE = SESSION_COOKIE_SECURE
# Under a prefix the cookies stay with this app, not every site of the host.
SESSION_COOKIE_PATH = CSRF_COOKIE_PATH = f"{SCRIPT_NAME}/"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
BEHIND_TLS_PROXY = env_bool("BEHIND_TLS_PROXY")
if BEHIND_TLS_PROXY:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# Behind TLS, browsers are told to use https only (HSTS) and plain http is redirected.
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", BEHIND_TLS_PROXY)
# (/healthz is answered by scorekeeper.web.health.HealthMiddleware, above all of these.)
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 365 * 24 * 3600 if BEHIND_TLS_PROXY else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", BEHIND_TLS_PROXY)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", BEHIND_TLS_PROXY)

# -- Abuse: every counter lives in the database, which all app processes share. --------
#: Proxies in front that append the client's address to X-Forwarded-For. 0 (the
#: default): the header is the client's own word and is ignored.
TRUSTED_PROXY_COUNT = max(env_int("TRUSTED_PROXY_COUNT", 0), 0)
REST_FRAMEWORK["NUM_PROXIES"] = TRUSTED_PROXY_COUNT

CACHES = {
    # Per process: fragments of the pages, each keyed by everything it
    # shows (so never stale, only evicted, the least recently used first). An entry is
    # about 10 KB, and a table in play keeps about 10 (its current version's rows and
    # fragments): the default holds some 50 tables in 5 MB.
    "default": {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "OPTIONS": {"MAX_ENTRIES": env_int("CACHE_MAX_ENTRIES", 500)},
    },
    # What every phone of a table asks for right after a hand, kept once for every
    # process: a game version's rows (its folded state, names and colours), its live
    # answers and its API JSON. Django's database cache, in a table made by migrate
    # (migration 0019). Measured 2026-11-27 (PostgreSQL on this 2-core machine, load
    # 6-12): a get 0.17-0.22 ms of the app's CPU (a miss 0.10-0.13), a 3 KB set
    # 0.57-0.59 ms (4-6 ms wall: its own commit and a COUNT(*) of the table, 0.05 ms
    # of PostgreSQL's time empty, 0.9 ms at 10,000 entries); the process's memory
    # 0.004-0.006 ms a get. So the sheet page's small fragments (about 8 a page: some
    # 1.5 ms more a page, the sheet's ratio 0.59 -> about 0.45) stay in "default",
    # and a version's rows and API JSON are kept in both (scorekeeper.kept: a sheet
    # or game seen before by a process costs it no query).
    # At 1,000 tables and 8 hands a second (a table's hand every ~2 minutes): some 3-4
    # sets a hand (the rows, a live answer a kind of phone, the API's JSON), ~30 sets
    # and ~30 ms of PostgreSQL a second; ~9,000 entries younger than TIMEOUT (rows
    # 1.3-3.5 KB pickled, live answers 10-22 KB of HTML, stored as base64): about
    # 100 MB before PostgreSQL compresses them; past MAX_ENTRIES a set deletes the
    # expired ones first (about 1,000 rows every ~30 s), so what is culled is what no
    # phone asks for.
    "versions": {
        "BACKEND": "django.core.cache.backends.db.DatabaseCache",
        "LOCATION": "scorekeeper_version_cache",
        # A version is asked for in the seconds after its hand; an expired entry is
        # only deleted when the table is over MAX_ENTRIES (then those first).
        "TIMEOUT": 300,
        "OPTIONS": {"MAX_ENTRIES": env_int("VERSION_CACHE_MAX_ENTRIES", 10_000)},
    },
    # What every process must see at once (sessions): Django's database cache, in a
    # table made by migrate (migration 0005).
    "shared": {
        "BACKEND": "django.core.cache.backends.db.DatabaseCache",
        "LOCATION": "scorekeeper_shared_cache",
        "TIMEOUT": 24 * 3600,
        "OPTIONS": {"MAX_ENTRIES": 100_000},
    },
}
# Sessions are read from the shared cache table (one plain query, where the sessions
# table's costs a query built by the ORM: a third of what a live answer or a poll costs)
# and written to both; every process sees a sign-out at once.
SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
SESSION_CACHE_ALIAS = "shared"
#: Requests per client address (an IPv6 /64) for each limited group; see
#: scorekeeper.security.rate_limit. Wrong passwords are counted apart, by axes.
RATE_LIMITS = {
    "sign-in": "30/15m",
    "sign-up": "10/h",
    # Password reset e-mails asked for, and reset links followed.
    "password-reset": "10/h",
    "password-change": "30/15m",
    "api-token": "30/15m",
    # Join links: a table opens a link a few times; guessing tokens takes millions.
    "join": "60/10m",
    "join-qr": "120/10m",
    # Hands, corrections and undos sent by guests (signed-in players are not counted).
    "guest-write": "300/10m",
}

# django-axes: wrong passwords per username and address, in the database, for every
# way in (sign-in page, admin, API token). A lockout answers 429 until the cool-off ends.
AUTHENTICATION_BACKENDS = [
    "scorekeeper.security.AxesSignInBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = max(env_int("LOGIN_FAILURE_LIMIT", 5), 1)
AXES_COOLOFF_TIME = timedelta(minutes=max(env_int("LOGIN_LOCKOUT_MINUTES", 15), 1))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_DISABLE_ACCESS_LOG = True
AXES_CLIENT_IP_CALLABLE = "scorekeeper.security.axes_client_ip"
AXES_USERNAME_CALLABLE = "scorekeeper.security.axes_username"
AXES_LOCKOUT_CALLABLE = "scorekeeper.security.lockout_response"

# Every line goes out through a handler that blots the secrets addresses carry (join
# tokens, stream tickets, password-reset tokens, invitation codes: log_secrets.py).
# Django's own handlers (its console under DEBUG, mail to ADMINS, which is never set)
# give way: its loggers write through the root's. A request failing while the database
# is away is one line, its traceback once per outage (outages.py). (gunicorn's logs:
# gunicorn.conf.py; the events server's uvicorn: scorekeeper/live/logging.json.)
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {
        "secrets": {"()": "scorekeeper.log_secrets.HideSecrets"},
        "outages": {"()": "scorekeeper.outages.OneTracebackPerOutage"},
    },
    "formatters": {
        "django.server": {
            "()": "django.utils.log.ServerFormatter",
            "format": "[{server_time}] {message}",
            "style": "{",
        }
    },
    "handlers": {
        "console": {"class": "logging.StreamHandler", "filters": ["secrets"]},
        "django.server": {
            "class": "logging.StreamHandler",
            "formatter": "django.server",
            "filters": ["secrets"],
        },
    },
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
    "loggers": {
        "django": {"handlers": []},
        "django.request": {"filters": ["outages"]},
        # runserver's line per request ("GET /join/… HTTP/1.1" 404)
        "django.server": {"handlers": ["django.server"], "propagate": False},
    },
}

if TESTING and DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # A file rather than SQLite's shared in-memory database: the browser tests' live
    # server then gives each request thread its own connection, as in production.
    DATABASES["default"]["TEST"] = {"NAME": str(BASE_DIR / ".pytest-db.sqlite3")}

if TESTING:
    # Hashing passwords slowly is the point in production and a waste in tests.
    PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
