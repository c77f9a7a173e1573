"""The words of the error pages (404, 405, 413, a form's expired token, 500, …) in the request's language.

Werkzeug and Flask-WTF name an error and say what went wrong in English; the error handler
(web/views/errors.py) gives each in the request's language, on the error page and in the API's
JSON. Any other words (a description the app gave itself, already translated) pass as they are.
"""

from flask_babel import get_translations


def N_(message: str) -> str:
    """Marks a message for the catalogs (`make messages`); it is translated where it is shown."""
    return message


KNOWN = frozenset(
    {
        N_("Bad Request"),
        N_("The browser (or proxy) sent a request that this server could not understand."),
        N_("Forbidden"),
        N_(
            "You don't have the permission to access the requested resource. It is either read-protected or not "
            "readable by the server."
        ),
        N_("Not Found"),
        N_(
            "The requested URL was not found on the server. If you entered the URL manually please check your "
            "spelling and try again."
        ),
        N_("Method Not Allowed"),
        N_("The method is not allowed for the requested URL."),
        N_("Request Entity Too Large"),
        N_("The data value transmitted exceeds the capacity limit."),
        N_("Too Many Requests"),
        N_("This user has exceeded an allotted request count. Try again later."),
        N_("Internal Server Error"),
        N_(
            "The server encountered an internal error and was unable to complete your request. Either the server is "
            "overloaded or there is an error in the application."
        ),
        N_("Service Unavailable"),
        # Flask-WTF's reasons for refusing a form: its token is missing, old or from another session.
        N_("The CSRF token is missing."),
        N_("The CSRF session token is missing."),
        N_("The CSRF token has expired."),
        N_("The CSRF token is invalid."),
        N_("The CSRF tokens do not match."),
        N_("The referrer header is missing."),
        N_("The referrer does not match the host."),
    }
)


def said(words: str) -> str:
    """An error's name or description in the request's language; any other words as they are."""
    return get_translations().gettext(words) if words in KNOWN else words
