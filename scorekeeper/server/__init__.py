"""The production server: uvicorn, and what it runs around the app (bodies read whole, the follow streams)."""
