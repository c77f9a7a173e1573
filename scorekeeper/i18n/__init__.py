"""The app's languages: each request's, the host's (for the command), and the words of HTTP, scripts and click."""
