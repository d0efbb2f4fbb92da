public import StoicStore
