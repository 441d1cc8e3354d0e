"""What admins decide: ``/settings`` (``settings_command``), and the checks and limits on new
games and requests that the chat settings ask for (``policy``)."""
