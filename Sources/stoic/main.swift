import StoicStore

print("stoic")
