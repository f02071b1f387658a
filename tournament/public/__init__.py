"""public"""
