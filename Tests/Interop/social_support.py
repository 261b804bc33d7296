"""A minimal in-memory strategy and storage for social-auth-core, modelled on social_core/tests.

A Django or Flask app supplies these through social-auth-app-django / social-auth-app-flask; the
backend and pipeline code they drive is the same.
"""

from __future__ import annotations

from typing import Any

from social_core.storage import BaseStorage, NonceMixin, UserMixin
from social_core.strategy import BaseStrategy, BaseTemplateStrategy

TEST_URI = "http://127.0.0.1:8000"


class User:
    """The site's user model: the fields social-auth's user_details step fills in."""

    registry: dict[str, User] = {}
    next_id = 1
    is_active = True
    is_authenticated = True

    def __init__(self, username: str, email: str | None = None, **extra: Any) -> None:
        self.id = User.next_id
        User.next_id += 1
        self.username = username
        self.email = email
        self.first_name: str | None = None
        self.last_name: str | None = None
        self.fullname: str | None = None
        self.social: list[UserSocialAuth] = []
        for name, value in extra.items():
            setattr(self, name, value)
        User.registry[username] = self

    def save(self) -> None:
        User.registry[self.username] = self


class UserSocialAuth(UserMixin):
    """The association of a site user with an Apple `sub`."""

    by_uid: dict[tuple[str, str], UserSocialAuth] = {}
    next_id = 1

    def __init__(self, user: User, provider: str, uid: str, id_key: str = "") -> None:
        self.id = UserSocialAuth.next_id
        UserSocialAuth.next_id += 1
        self.user, self.provider, self.uid, self.id_key = user, provider, uid, id_key
        self.extra_data: dict[str, Any] = {}
        user.social.append(self)
        UserSocialAuth.by_uid[(provider, uid)] = self

    def save(self) -> None:
        UserSocialAuth.by_uid[(self.provider, self.uid)] = self

    @classmethod
    def reset(cls) -> None:
        cls.by_uid = {}
        User.registry = {}
        Nonce.used = {}

    @classmethod
    def changed(cls, user) -> None:
        user.save()

    @classmethod
    def get_username(cls, user) -> str:
        return user.username

    @classmethod
    def user_model(cls):
        return User

    @classmethod
    def username_max_length(cls) -> int:
        return 150

    @classmethod
    def user_exists(cls, *args, **kwargs) -> bool:
        username = kwargs.get("username", args[0] if args else None)
        return username in User.registry

    @classmethod
    def create_user(cls, *args, **kwargs) -> User:
        username = kwargs.pop("username", args[0] if args else None)
        return User(username=username, **kwargs)

    @classmethod
    def get_user(cls, pk):
        return next((u for u in User.registry.values() if u.id == pk), None)

    @classmethod
    def get_users_by_email(cls, email: str):
        return [u for u in User.registry.values() if u.email == email]

    @classmethod
    def get_social_auth(cls, provider: str, uid: str, id_key: str | None = None):
        social = cls.by_uid.get((provider, uid))
        if social and (id_key is None or social.id_key == id_key):
            return social
        return None

    @classmethod
    def get_social_auth_for_user(cls, user, provider=None, id=None):  # noqa: A002 - social-core's name
        return [s for s in user.social if provider in (None, s.provider) and id in (None, s.id)]

    @classmethod
    def create_social_auth(cls, user, uid: str, provider: str, id_key: str = ""):
        return cls(user=user, provider=provider, uid=uid, id_key=id_key)


class Nonce(NonceMixin):
    """Single-use values; social-auth keeps its OAuth2 state transactions here."""

    used: dict[str, Nonce] = {}

    def __init__(self, server_url: str, timestamp: int, salt: str) -> None:
        self.server_url, self.timestamp, self.salt = server_url, timestamp, salt

    @staticmethod
    def _key(server_url, timestamp, salt) -> str:
        return f"{server_url}:{timestamp}:{salt}"

    @classmethod
    def use(cls, server_url, timestamp, salt):
        key = cls._key(server_url, timestamp, salt)
        if key in cls.used:
            return False
        cls.used[key] = cls(server_url, timestamp, salt)
        return cls.used[key]

    @classmethod
    def get(cls, server_url, salt):
        return next((n for n in cls.used.values() if n.server_url == server_url and n.salt == salt), None)

    @classmethod
    def delete(cls, nonce) -> None:
        cls.used.pop(cls._key(nonce.server_url, nonce.timestamp, nonce.salt), None)

    @classmethod
    def consume(cls, server_url, timestamp, salt) -> bool:
        return cls.used.pop(cls._key(server_url, timestamp, salt), None) is not None


class Storage(BaseStorage):
    user = UserSocialAuth
    nonce = Nonce

    @classmethod
    def is_integrity_error(cls, exception) -> bool:
        return False


class _Templates(BaseTemplateStrategy):
    def render_template(self, tpl, context):
        return tpl

    def render_string(self, html, context):
        return html


class Redirect:
    def __init__(self, url: str) -> None:
        self.url = url


class Strategy(BaseStrategy):
    """Settings, request data and session as plain dicts (what a web framework would provide)."""

    DEFAULT_TEMPLATE_STRATEGY = _Templates

    def __init__(self, settings: dict[str, Any]) -> None:
        self._settings = dict(settings)
        self._request_data: dict[str, Any] = {}
        self._session: dict[str, Any] = {}
        super().__init__(Storage)

    def get_setting(self, name):
        return self._settings[name]

    def redirect(self, url):
        return Redirect(url)

    def html(self, content):
        return content

    def render_html(self, tpl=None, html=None, context=None):
        return tpl or html or ""

    def get_request_data(self, merge=True):
        return self._request_data

    def request_host(self):
        return "127.0.0.1:8000"

    def request_is_secure(self) -> bool:
        return False

    def request_path(self) -> str:
        return "/callback"

    def request_port(self) -> int:
        return 8000

    def request_get(self):
        return dict(self._request_data)

    def request_post(self):
        return dict(self._request_data)

    def session_get(self, name, default=None):
        return self._session.get(name, default)

    def session_set(self, name, value) -> None:
        self._session[name] = value

    def session_pop(self, name):
        return self._session.pop(name, None)

    def build_absolute_uri(self, path=None):
        path = path or ""
        return path if path.startswith(("http://", "https://")) else TEST_URI + path

    def set_request_data(self, values: dict[str, Any], backend) -> None:
        """A new callback request arrives: replace the request data the backend sees."""
        self._request_data = dict(values)
        backend.data = self._request_data

    def authenticate(self, backend, *args, **kwargs):
        kwargs["strategy"] = self
        kwargs["storage"] = self.storage
        kwargs["backend"] = backend
        args, kwargs = self.clean_authenticate_args(*args, **kwargs)
        return backend.authenticate(*args, **kwargs)


DETAILS: list[dict[str, Any]] = []


def record_details(details, uid, response, *args, **kwargs):
    """A last pipeline step (as a site would add one) that keeps what social-auth extracted."""
    DETAILS.append({"details": dict(details), "uid": uid, "response": dict(response),
                    "is_new": kwargs.get("is_new")})
