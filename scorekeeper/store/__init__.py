"""The store: what the tables entered, in the database (models, the connection, the group each query keeps to,
games' uids, and the news of their changes)."""
