"""tournament_file"""
