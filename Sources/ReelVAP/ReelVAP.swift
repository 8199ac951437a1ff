// Built on the player core, whose media model and adapters its API uses.
@_exported import ReelPlayer
