"""What every request passes before its page: the host and the site it came from, the body's size, the group its
address names, the passcode and its guesses, and what an address may spend."""
