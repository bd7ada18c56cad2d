"""A minimal Django project serving django-oauth-toolkit for appflip's interop test. Test use only."""
import os
import secrets

BASE_DIR = os.path.dirname(os.path.abspath(__file__))
STATE_DIR = os.environ["APPFLIP_DJANGO_STATE"]

SECRET_KEY = secrets.token_urlsafe(48)
DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]

INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "oauth2_provider",
]
MIDDLEWARE = [
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
]
ROOT_URLCONF = "interop.urls"
TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [os.path.join(BASE_DIR, "templates")],
        "APP_DIRS": True,
        "OPTIONS": {"context_processors": ["django.template.context_processors.request"]},
    }
]
# IMMEDIATE transactions (Django 5.1+): concurrent writers wait for the lock instead of failing with "database
# is locked", as a partner serving more than one request at a time on SQLite configures it.
DATABASES = {
    "default": {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": os.path.join(STATE_DIR, "db.sqlite3"),
        "OPTIONS": {"transaction_mode": "IMMEDIATE", "timeout": 20},
    }
}
USE_TZ = True
LOGIN_URL = "/accounts/login/"
LOGIN_REDIRECT_URL = "/accounts/login/"
DEFAULT_AUTO_FIELD = "django.db.models.AutoField"
PASSWORD_HASHERS = ["django.contrib.auth.hashers.PBKDF2PasswordHasher"]

OAUTH2_PROVIDER = {
    "AUTHORIZATION_CODE_EXPIRE_SECONDS": 600,
    "PKCE_REQUIRED": False,
    "SCOPES": {"profile": "Your profile", "devices": "Your devices"},
    "DEFAULT_SCOPES": ["profile"],
}
if os.environ.get("APPFLIP_DJANGO_DEFAULTS") == "1":
    # django-oauth-toolkit's own defaults (PKCE required, 60-second codes), with the scopes the client asks for.
    OAUTH2_PROVIDER = {key: OAUTH2_PROVIDER[key] for key in ("SCOPES", "DEFAULT_SCOPES")}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"stderr": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["stderr"], "level": "WARNING"},
}
