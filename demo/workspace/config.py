DEBUG = True
HOST = "localhost"
